export * from './clock';
export * from './conversation-store';
export * from './language-model';
export * from './node-rate-limiter';
export * from './node-registry';
