import { describe, expect, it } from 'vitest';
import { startLocalApiServer } from '../../../infra/local/local-api-server';

describe('the URL the local API reports', () => {
  it('is one a client on this machine can dial when it listens on every interface', async () => {
    // Arrange
    const server = await startLocalApiServer({ port: 0, host: '0.0.0.0', routes: [] });

    try {
      // Act
      const health = await fetch(`${server.url}/health`);

      // Assess
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect(health.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
