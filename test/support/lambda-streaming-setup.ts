/**
 * Vitest setup (vitest.config.ts): the Lambda runtime's streaming globals, before any test file
 * imports a function that streams (it calls `awslambda.streamifyResponse` as it loads, as in
 * Lambda).
 */
import { installLambdaStreamingGlobals } from '../../infra/local/lambda-response-streaming';

installLambdaStreamingGlobals();
