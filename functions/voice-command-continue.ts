// Placeholder entry so the CDK app can bundle while the real handler is being written.
export const handler = async (): Promise<{ statusCode: number; body: string }> => ({
  statusCode: 503,
  body: JSON.stringify({ error: { code: 'not_ready', message: 'handler not wired yet', details: [] } }),
});
