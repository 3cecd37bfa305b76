export { startMongoWireServer, type MongoWireServer, type MongoWireServerOptions } from './server.js';
