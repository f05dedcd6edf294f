// dynalite in a process of its own for the attack bench: its CPU (and the heap of every
// conversation the run stores) is the database's, as DynamoDB's is in AWS, not the API's.

import { startEmbeddedDynamoDb } from '../infra/local/embedded-dynamodb';

const database = await startEmbeddedDynamoDb({ port: 0 });
process.on('message', (command: { readonly id: number; readonly kind: 'close' }) => {
  void database.close().then(() => {
    process.send?.({ id: command.id });
    process.disconnect();
  });
});
process.send?.({ endpoint: database.endpoint, port: database.port });
