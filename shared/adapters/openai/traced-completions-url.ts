/**
 * The chat-completions URL as a trace may show it: without user name, password, query or
 * fragment, since a base URL can carry a credential in any of them and a trace is kept and
 * shown as sent.
 */
export function tracedCompletionsUrl(baseURL: string): string {
  return tracedEndpointUrl(baseURL, '/chat/completions');
}

/** The URL of endpoint `path` (e.g. `/audio/speech`) under `baseURL`, cleaned the same way. */
export function tracedEndpointUrl(baseURL: string, path: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return '[unparsable base URL]';
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return `${url.href.replace(/\/$/, '')}${path}`;
}
