export * from './clock';
export * from './conversation-store';
export * from './language-model';
export * from './node-registry';
export * from './request-locks';
