import { errorResponses, IdParam, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { listEnvelope, PageQuery } from '../../lib/pagination.js';
import { DomainAddBody, DomainCreated, DomainList, DomainUpdateBody } from './schema.js';
import { addDomain, deleteDomain, listDomains, updateDomain } from './service.js';

const tags = ['domains'];

export const domainRoutes: Feature = async (app, { ctx }) => {
  app.get(
    '/domains',
    {
      schema: {
        tags,
        summary: 'Branded domains of the account, newest first',
        querystring: PageQuery,
        response: { 200: DomainList, ...errorResponses },
      },
    },
    async (req) => listEnvelope('domains', await listDomains(ctx, accountOf(req).userId, req.query)),
  );

  app.post(
    '/domain/add',
    {
      schema: {
        tags,
        summary: 'Register a branded domain',
        description:
          'The host is stored in one spelling (lower case, IDN as punycode, no final dot, no default port) and belongs to ' +
          'one account: any spelling of a registered host is a 409, and so is its name on another port (or without one) when ' +
          "another account has it (`domain_port_taken_elsewhere`). The service's own host, in any spelling, and the other scheme's " +
          "standard port (http://…:443, https://…:80) are refused (400), and so is a host that shares cookies with the dashboard's or " +
          "BASE_URL's host (the same name on another port, a parent or a subdomain of it: 400 `domain_reserved`). " +
          'When DOMAIN_DNS_TARGETS is set, the host must already have an A/AAAA record for, or a CNAME to, one of those targets (400 otherwise).',
        body: DomainAddBody,
        response: { 200: DomainCreated, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, id: await addDomain(ctx, accountOf(req).userId, req.body) }),
  );

  app.put(
    '/domain/:id/update',
    {
      schema: {
        tags,
        summary: 'Change the root and 404 redirects; "" clears one',
        params: IdParam,
        body: DomainUpdateBody,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await updateDomain(ctx, accountOf(req).userId, req.params.id, req.body);
      return ok('Domain has been updated successfully.');
    },
  );

  app.delete(
    '/domain/:id/delete',
    {
      schema: {
        tags,
        summary: 'Delete a branded domain',
        description: 'Refused with 409 while short links still use the domain: delete or move them first.',
        params: IdParam,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await deleteDomain(ctx, accountOf(req).userId, req.params.id);
      return ok('Domain has been deleted successfully.');
    },
  );
};
