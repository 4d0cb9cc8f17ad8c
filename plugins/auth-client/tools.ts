/**
 * core_auth_login and core_auth_logout. Login changes nothing on the platform: it hands the
 * caller a link (or, when the caller already holds a grant from the same authorization
 * server, reuses it at once); the grant lands with the caller. A client that declared
 * URL-mode elicitation is offered the link as a page to open (sign-in-elicitations.ts), and
 * the result says what the person answered. Logout drops the caller's.
 */
import { authorize, ConflictError, coreToolName, NotFoundError, objectResult, ownerOf, type KernelApi, type ToolDefinition } from '../../kernel/index.js';
import type { Grants } from './grants.js';
import type { RecordEvent, SignIns } from './sign-ins.js';
import { SignInElicitations } from './sign-in-elicitations.js';

/** The link as text, for a client that cannot be offered it as a page (or failed to be). */
function linkResult(server: string, url: string, expiresIn: number) {
  return {
    server,
    status: 'auth_required',
    sign_in_url: url,
    expires_in: expiresIn,
    message: `Open sign_in_url in a browser within ${expiresIn / 60} minutes to sign in to '${server}'; its tools appear in your list once you have.`,
  };
}

const SERVER_ARG = { server: { type: 'string', minLength: 1, description: 'Name of the MCP server, as list_tools names it in servers_requiring_auth.' } };

export function authTools(
  kernel: KernelApi,
  prefix: string,
  parts: { signIns: SignIns; grants: Grants; elicitations: SignInElicitations; startUrl: (ticket: string) => string; record: RecordEvent },
): ToolDefinition[] {
  const upstreams = () => kernel.services.get('upstreams');
  const definition = (server: string) => {
    const def = kernel.config.snapshot.mcpServers.get(server)?.value;
    if (!def) throw new NotFoundError('MCP server', server);
    return def;
  };
  return [
    {
      name: coreToolName(prefix, 'core_auth_login'),
      kind: 'core',
      description:
        "Sign in to a remote MCP server that requires it: returns a link to open in a browser. Once signed in, the server's tools are listed for you (and only for you).",
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      inputSchema: { type: 'object', additionalProperties: false, required: ['server'], properties: SERVER_ARG },
      async invoke(args, call) {
        const server = args.server as string;
        const def = definition(server);
        authorize(kernel, call, 'signIn', {
          type: 'server',
          name: server,
          serverType: def.type,
          ...(def.registeredBy !== undefined ? { owner: def.registeredBy } : {}),
        });
        if (def.suspended) {
          throw new ConflictError(`Server '${server}' is deactivated (spec.suspended=true); activate it with core_service_start before signing in`, { server });
        }
        const owner = ownerOf(call.request.session);
        const status = upstreams().statusFor(server, owner);
        const target = upstreams().signInTarget(server, owner);
        if (status === 'connected' && !target?.stepUp) return objectResult({ server, status, message: `You can already use '${server}'; no sign-in needed.` });
        if (!target)
          throw new ConflictError(
            `Server '${server}' does not ask for a sign-in (it is ${upstreams().status(server)?.state ?? 'unknown'}); sign-in applies to remote servers that answer 401`,
            { server },
          );
        const issuer = target.stepUp ? undefined : await parts.signIns.reuse(owner, server, target);
        if (issuer)
          return objectResult({
            server,
            status: 'connected',
            single_sign_on: true,
            issuer,
            message: `Signed in to '${server}' with your existing sign-in at ${issuer}.`,
          });
        const client = call.client;
        if (!SignInElicitations.offered(client)) {
          const { ticket, expiresIn } = await parts.signIns.ticket(owner, server);
          return objectResult(linkResult(server, parts.startUrl(ticket), expiresIn));
        }
        // The person may finish before the client answers: the id is known to the ticket first.
        const elicitationId = parts.elicitations.expect(client);
        const { ticket, expiresIn } = await parts.signIns.ticket(owner, server, elicitationId);
        const url = parts.startUrl(ticket);
        const offer = await parts.elicitations.offer(
          client,
          elicitationId,
          url,
          `Sign in to '${server}' through Switchboard at ${new URL(url).host}`,
          call.cancellation.signal,
        );
        if ('failed' in offer) return objectResult({ ...linkResult(server, url, expiresIn), elicitation: 'failed', elicitation_error: offer.failed });
        const minutes = expiresIn / 60;
        return objectResult({
          server,
          status: 'auth_required',
          sign_in_url: url,
          expires_in: expiresIn,
          elicitation: offer.action,
          elicitation_id: offer.elicitationId,
          message:
            offer.action === 'accept'
              ? `The sign-in page for '${server}' was opened for you: finish signing in there within ${minutes} minutes; its tools appear in your list once you have.`
              : `You ${offer.action === 'decline' ? 'declined' : 'dismissed'} the sign-in page for '${server}'; to sign in later, open sign_in_url in a browser within ${minutes} minutes.`,
        });
      },
    },
    {
      name: coreToolName(prefix, 'core_auth_logout'),
      kind: 'core',
      description: 'Sign out of a remote MCP server: your grant for it is discarded and its tools are no longer listed for you.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      inputSchema: { type: 'object', additionalProperties: false, required: ['server'], properties: SERVER_ARG },
      async invoke(args, call) {
        const server = args.server as string;
        definition(server);
        const owner = ownerOf(call.request.session);
        const had = parts.grants.has(server, owner);
        await parts.grants.forget(server, owner);
        await upstreams().grantChanged(server, owner);
        if (had) parts.record('Normal', 'MCPServerSignedOut', server, `${owner.startsWith('person:') ? 'a person' : 'a session'} signed out of '${server}'`);
        return objectResult({ server, signed_out: had, status: upstreams().statusFor(server, owner) });
      },
    },
  ];
}
