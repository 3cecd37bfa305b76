// Routes a command document to its handler and turns the outcome into the
// reply mongod would send: the handler's fields plus ok: 1, or an error reply.
import type { Document } from 'mongodb';
import type { CommandContext, CommandHandler } from './command.js';
import { handshakeCommands } from './commands/handshake.js';
import { namespaceCommands } from './commands/namespace.js';
import { readCommands } from './commands/read.js';
import { writeCommands } from './commands/write.js';
import { CommandError, toCommandError } from './errors.js';

const handlers = new Map<string, CommandHandler>(Object.entries({ ...handshakeCommands, ...readCommands, ...writeCommands, ...namespaceCommands }));

// Fields the driver adds to the commands of a transaction.
const TRANSACTION_FIELDS = ['txnNumber', 'startTransaction', 'autocommit'];

export function runCommand(command: Document, context: CommandContext): Document {
  try {
    // A command's name is its first field.
    const name = Object.keys(command)[0] ?? '';
    if (TRANSACTION_FIELDS.some((field) => field in command)) {
      // A standalone mongod answers IllegalOperation (20) here, which the
      // driver rewrites for writes into a misleading "does not support
      // retryable writes" message; NotImplemented keeps the cause visible.
      throw new CommandError('NotImplemented', 'transactions are not supported by the mongo-wire test server');
    }
    const handler = handlers.get(name);
    if (!handler) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    return { ...handler(command, context), ok: 1 };
  } catch (error) {
    return toCommandError(error).toReply();
  }
}
