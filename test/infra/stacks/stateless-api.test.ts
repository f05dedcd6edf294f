import { describe, expect, it } from 'vitest';
import { accessLogFields } from '../../../infra/stacks/voice-api';
import { apiRoutes, functionLogicalId } from '../../../infra/stacks/voice-routes';
import { sharedJccApp } from '../shared-jcc-apps';

const synthesized = sharedJccApp('deployed');

const resourcesOfType = (type: string) => synthesized.statelessTemplate.findResources(type);

const onlyResourceOfType = (type: string) => {
  const all = Object.values(resourcesOfType(type));
  if (all.length !== 1) throw new Error(`expected one ${type}, found ${all.length}`);
  return all[0];
};

/** The full path of an API Gateway resource, rebuilt from its chain of parents. */
const pathOf = (resourceLogicalId: string): string => {
  const resource = resourcesOfType('AWS::ApiGateway::Resource')[resourceLogicalId];
  if (resource === undefined) return '';
  const parent: { Ref?: string } = resource.Properties.ParentId;
  return `${parent.Ref === undefined ? '' : pathOf(parent.Ref)}/${resource.Properties.PathPart}`;
};

describe('the REST API', () => {
  it('is regional', () => {
    expect(onlyResourceOfType('AWS::ApiGateway::RestApi')?.Properties).toMatchObject({
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
  });

  it('has exactly the routes of the route table, each with its one method, proxied to its function', () => {
    // Prepare
    const methods = Object.values(resourcesOfType('AWS::ApiGateway::Method'));

    // Act
    const routes = methods.map((method) => ({
      path: pathOf(method.Properties.ResourceId.Ref),
      httpMethod: method.Properties.HttpMethod,
      integration: method.Properties.Integration.Type,
      target: JSON.stringify(method.Properties.Integration.Uri).match(/"(\w+Function)"/)?.[1],
    }));

    // Assess
    expect(routes).toEqual(
      apiRoutes.map((route) => ({
        path: route.path,
        httpMethod: route.method,
        integration: 'AWS_PROXY',
        target: functionLogicalId(route.function),
      })),
    );
  });

  it('lets API Gateway invoke each function only through its own routes', () => {
    // Prepare
    const permissions = Object.values(resourcesOfType('AWS::Lambda::Permission'));

    // Act
    const grants = permissions.map((permission) => ({
      sourceArn: JSON.stringify(permission.Properties.SourceArn),
      target: JSON.stringify(permission.Properties.FunctionName),
    }));

    // Assess
    expect(permissions).toHaveLength(apiRoutes.length);
    for (const route of apiRoutes) {
      const granted = grants.filter(({ sourceArn }) =>
        sourceArn.includes(`/${route.method}${route.path}"`),
      );
      expect(granted).toHaveLength(1);
      expect(granted[0]?.target).toContain(functionLogicalId(route.function));
    }
  });
});

describe('the stage', () => {
  const stage = () => onlyResourceOfType('AWS::ApiGateway::Stage');

  it('throttles every method and logs errors without request data', () => {
    expect(stage()?.Properties).toMatchObject({
      StageName: 'prod',
      MethodSettings: [
        {
          ResourcePath: '/*',
          HttpMethod: '*',
          ThrottlingRateLimit: 50,
          ThrottlingBurstLimit: 100,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        },
      ],
    });
  });

  it('writes one JSON object per request to an access log group kept 30 days', () => {
    // Prepare
    const accessLog = stage()?.Properties.AccessLogSetting;
    // The ARN is built from the group's name (no trailing `:*`), so find the group it refers to.
    const logGroupId = JSON.stringify(accessLog.DestinationArn).match(/"Ref":"(\w+Logs\w*)"/)?.[1];

    // Act
    const format: unknown = JSON.parse(accessLog.Format);

    // Assess
    expect(format).toEqual(accessLogFields);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      integrationLatency: '$context.integrationLatency',
    });
    expect(logGroupId).toBeDefined();
    expect(
      resourcesOfType('AWS::Logs::LogGroup')[logGroupId ?? '']?.Properties.RetentionInDays,
    ).toBe(30);
  });

  it('never logs request headers, which carry the node keys', () => {
    // Prepare / Act
    const format: string = stage()?.Properties.AccessLogSetting.Format;

    // Assess
    expect(format).not.toMatch(/requestOverride|\.header\./i);
  });
});

describe('the outputs', () => {
  it('give the stage URL under a stable name', () => {
    synthesized.statelessTemplate.hasOutput('ApiUrl', {});
  });
});
