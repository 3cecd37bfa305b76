import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import type { ServerConfig } from '../config.js';
import { KeyFile } from './key-file.js';
import { KeyStore } from './key-store.js';
import type { KeyRecords } from './key-store.js';
import { MongoKeys } from './mongo-keys.js';

/** Where `config` keeps managed keys: MongoDB beside the catalog when the catalog is there, the data directory's keys file otherwise. */
export async function keyRecordsFor(config: ServerConfig): Promise<KeyRecords> {
  if (!config.catalogUrl) return new KeyFile(config.dataDir);
  // Loaded only for MongoDB, so `predgate keys` on the keys file stays quick.
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(config.catalogUrl, { appName: 'predgate-keys', serverSelectionTimeoutMS: 5_000 });
  await client.connect();
  return new MongoKeys(client.db(), () => client.close());
}

/** Opens the keys `config` names, runs `use` on them, and closes them: what each `predgate keys` command does. */
export async function withKeys<T>(config: ServerConfig, use: (keys: KeyStore) => Promise<T>): Promise<T> {
  const keys = await KeyStore.open(await keyRecordsFor(config), { environmentKeys: config.apiKeys });
  try {
    return await use(keys);
  } finally {
    await keys.close();
  }
}

/** `predgate keys create|list|revoke|rotate`: running gateways see the change within a second. */
export function addKeyCommands(program: Command): void {
  const keys = program.command('keys').description('manage API keys (the keys file in the data directory, or MongoDB when the catalog is there)');
  const configOption = ['-c, --config <file>', 'JSON configuration file (environment variables win over it)'] as const;
  const configured = (options: { config?: string }) => loadConfig({ file: options.config });

  keys
    .command('create')
    .description('create a key and print it (once)')
    .option('-l, --label <label>', 'what the key is for')
    .option(...configOption)
    .action(async (options: { label?: string; config?: string }) => {
      await withKeys(configured(options), async (store) => {
        const { key, record } = await store.create(options.label);
        process.stdout.write(`${record.id}\n${key}\n(only its hash is kept, in ${store.location})\n`);
      });
    });

  keys
    .command('list')
    .description('list keys (ids, labels, creation dates; never the keys)')
    .option(...configOption)
    .action(async (options: { config?: string }) => {
      await withKeys(configured(options), async (store) => {
        for (const key of store.list()) {
          process.stdout.write(`${key.id}\t${key.source}\t${key.createdAt}\t${key.hash.slice(0, 12)}…\t${key.label ?? ''}\n`);
        }
      });
    });

  keys
    .command('revoke')
    .description('revoke a key by id; running gateways refuse it within a second')
    .argument('<id>', 'key id, as listed')
    .option(...configOption)
    .action(async (id: string, options: { config?: string }) => {
      await withKeys(configured(options), async (store) => {
        if (!(await store.revoke(id))) throw new Error(`no key with id ${id} in ${store.location}`);
        process.stdout.write(`revoked ${id}\n`);
      });
    });

  keys
    .command('rotate')
    .description('create a key with the label of another, then revoke that one; prints the new key (once)')
    .argument('<id>', 'key id, as listed')
    .option(...configOption)
    .action(async (id: string, options: { config?: string }) => {
      await withKeys(configured(options), async (store) => {
        const rotated = await store.rotate(id);
        if (!rotated) throw new Error(`no key with id ${id} in ${store.location}`);
        process.stdout.write(`${rotated.record.id}\n${rotated.key}\n(replaces ${id}, now revoked; only its hash is kept, in ${store.location})\n`);
      });
    });
}
