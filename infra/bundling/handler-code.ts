import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { type AssetCode, Code } from 'aws-cdk-lib/aws-lambda';
import { LocalHandlerBundler } from './local-handler-bundler';

/**
 * Required by the CDK's bundling options but never used: `LocalHandlerBundler` succeeds or
 * throws, so the CDK never falls back to a Docker build (which could not run our plugin anyway).
 */
const unusedDockerImage = DockerImage.fromRegistry('public.ecr.aws/docker/library/node:24');

/**
 * The code of one handler: `entryPoint` bundled by esbuild with the options of function-bundling.ts
 * (a child process runs it) into an asset whose hash is that of the bundle, as `NodejsFunction`
 * did. `projectRoot` is the asset's source directory, the working directory of the build.
 */
export function handlerCode(entryPoint: string, projectRoot: string): AssetCode {
  return Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: unusedDockerImage,
      local: new LocalHandlerBundler(entryPoint, projectRoot),
    },
  });
}
