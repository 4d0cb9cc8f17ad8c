/**
 * The admin pages' actions on servers and tools: add (a form per transport, or a pasted IDE
 * snippet), edit, suspend, resume, reconnect, delete, switch tools off, run a tool. Each is a
 * plain form post answered by a redirect to the page that shows the result (or by the form
 * again with the refusal beside the field), and each is a call_tool of the core tool that
 * does it (tool-calls.ts), so it is authorized, written and recorded as that tool is.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { redactDefinition, type JsonObject, type KernelApi, type Logger, type Principal } from '../../kernel/index.js';
import { addError, type FieldErrors } from './fields.js';
import { readForm } from './form-body.js';
import { html, page, type Html } from './html.js';
import { addServerBody, definitionOf, editServerBody, formOf, placeProblems, SERVER_FIELDS, type AddForm } from './server-form.js';
import { argumentsOf, toolBody } from './tool-form.js';
import type { CallOutcome, ToolCalls } from './tool-calls.js';
import type { Settling } from './settled.js';

const enc = encodeURIComponent;

export interface ActionDeps {
  kernel: KernelApi;
  log: Logger;
  calls: ToolCalls;
  settling: Settling;
  /** Sends a page (scrubbed of secrets), or the styled 404 when `body` is undefined. */
  show: (ctx: Koa.Context, body: Html | undefined, what: string, status?: number) => void;
}

function principalOf(ctx: Koa.Context): Principal {
  return (ctx.state as { principal: Principal }).principal;
}

/** Calls core tool `base` as the page's caller. */
export function coreCall(calls: ToolCalls, ctx: Koa.Context, base: string, args: JsonObject): Promise<CallOutcome> {
  return calls.call(principalOf(ctx), calls.core(base), args);
}

export function registerServerActions(router: Router, d: ActionDeps): void {
  const { kernel, calls, show } = d;
  const call = (ctx: Koa.Context, base: string, args: JsonObject) => coreCall(calls, ctx, base, args);
  const definition = (name: string) => kernel.config.snapshot.mcpServers.get(name)?.value;
  /** At most the server's connection timeout, and never more than 15 s for a page to answer. */
  const settled = (name: string) => d.settling.settled(name, Math.min(definition(name)?.timeout ?? 15, 15) * 1000);
  /** A refused action with nothing to correct in a form: its reason on a page of its own. */
  const refused = (ctx: Koa.Context, title: string, outcome: CallOutcome, back: string) =>
    show(
      ctx,
      page(
        title,
        html`<p class="bad" role="alert">${outcome.text}</p>
          <p><a href="${back}">Back</a></p>`,
      ),
      '',
      outcome.code === 'FORBIDDEN' ? 403 : 409,
    );
  const addPage = (ctx: Koa.Context, which: AddForm | undefined, form: Record<string, string | boolean | undefined>, errors: FieldErrors) =>
    show(ctx, page('Add a server', addServerBody(which, form, errors)), '', errors.size ? 422 : 200);

  router.get('/mcps/new', (ctx) => addPage(ctx, undefined, {}, new Map()));

  router.post('/mcps', async (ctx) => {
    const errors: FieldErrors = new Map();
    const { args, shown } = definitionOf(await readForm(ctx), errors);
    const which: AddForm = args.type === 'stdio' ? 'stdio' : 'remote';
    if (errors.size) return addPage(ctx, which, shown, errors);
    const outcome = await call(ctx, 'core_mcpserver_create', args);
    if (!outcome.ok) {
      placeProblems(outcome.problems, outcome.text, errors, SERVER_FIELDS);
      return addPage(ctx, which, shown, errors);
    }
    await settled(args.name as string);
    ctx.redirect(`/mcps/${enc(args.name as string)}?done=created`);
  });

  router.post('/mcps/import', async (ctx) => {
    const snippet = (await readForm(ctx)).get('snippet') ?? '';
    const errors: FieldErrors = new Map();
    const reader = kernel.services.find('client-config');
    const read = reader
      ? reader.read(snippet)
      : { ok: false as const, reason: 'the client-config plugin is switched off (plugins.client-config), so snippets cannot be read' };
    if (!read.ok) {
      addError(errors, 'snippet', read.reason);
      return addPage(ctx, 'paste', { snippet }, errors);
    }
    const created: string[] = [];
    for (const s of read.servers) {
      if (!s.ok) {
        addError(errors, 'snippet', `${s.name}: ${s.reason}`);
        continue;
      }
      const outcome = await call(ctx, 'core_mcpserver_create', s.definition);
      if (outcome.ok) created.push(s.name);
      else addError(errors, 'snippet', `${s.name}: ${outcome.problems.length ? outcome.problems.join('; ') : outcome.text}`);
    }
    await Promise.all(created.map(settled));
    if (errors.size === 0 && created.length === 1) return ctx.redirect(`/mcps/${enc(created[0]!)}?done=created`);
    if (errors.size === 0) return ctx.redirect(`/mcps?done=created`);
    if (created.length) addError(errors, '', `Added ${created.join(', ')}; the rest were not:`);
    return addPage(ctx, 'paste', { snippet }, errors);
  });

  router.get('/mcps/:name/edit', (ctx) => {
    const def = definition(ctx.params.name!);
    show(ctx, def && page(`Edit ${def.name}`, editServerBody(formOf(redactDefinition(def)), new Map())), `Server ${ctx.params.name}`);
  });

  router.post('/mcps/:name/edit', async (ctx) => {
    const name = ctx.params.name!;
    const def = definition(name);
    if (!def) return show(ctx, undefined, `Server ${name}`);
    const errors: FieldErrors = new Map();
    const { args, shown } = definitionOf(await readForm(ctx), errors);
    // The name is the page's, not the form's: a server is renamed by adding another.
    args.name = name;
    shown.name = name;
    if (def.type !== 'stdio' && args.type === 'stdio') args.type = def.type;
    const outcome = errors.size ? undefined : await call(ctx, 'core_mcpserver_update', args);
    if (outcome?.ok) {
      await settled(name);
      return ctx.redirect(`/mcps/${enc(name)}?done=updated`);
    }
    if (outcome) placeProblems(outcome.problems, outcome.text, errors, SERVER_FIELDS);
    show(ctx, page(`Edit ${name}`, editServerBody(shown, errors)), '', 422);
  });

  const simple = (path: string, title: string, base: string, args: (name: string) => JsonObject, done: string) =>
    router.post(`/mcps/:name/${path}`, async (ctx) => {
      const name = ctx.params.name!;
      if (!definition(name)) return show(ctx, undefined, `Server ${name}`);
      const outcome = await call(ctx, base, args(name));
      if (!outcome.ok) return refused(ctx, `${title} ${name}`, outcome, `/mcps/${enc(name)}`);
      await settled(name);
      ctx.redirect(`/mcps/${enc(name)}?done=${done}`);
    });
  simple('suspend', 'Suspend', 'core_mcpserver_update', (name) => ({ name, suspended: true }), 'suspended');
  simple('resume', 'Resume', 'core_mcpserver_update', (name) => ({ name, suspended: false }), 'resumed');
  // core_service_restart answers once the server is back (or failed): the page it redirects to shows the outcome, not "stopping".
  simple('reconnect', 'Reconnect', 'core_service_restart', (name) => ({ name }), 'reconnected');

  router.get('/mcps/:name/delete', (ctx) => {
    const name = ctx.params.name!;
    show(
      ctx,
      definition(name) &&
        page(
          `Delete ${name}?`,
          html`<p>This removes the definition of <strong>${name}</strong> (its file in mcpservers/) and stops it; its tools leave the catalogue.</p>
            <form method="post" action="/mcps/${enc(name)}/delete">
              <button type="submit" class="danger">Delete ${name}</button> <a href="/mcps/${enc(name)}">Cancel</a>
            </form>`,
        ),
      `Server ${name}`,
    );
  });

  router.post('/mcps/:name/delete', async (ctx) => {
    const name = ctx.params.name!;
    if (!definition(name)) return show(ctx, undefined, `Server ${name}`);
    // core_mcpserver_delete refuses a running server; the page's Delete means "stop it, then delete it".
    const stopped = await call(ctx, 'core_service_stop', { name });
    const outcome = stopped.ok ? await call(ctx, 'core_mcpserver_delete', { name }) : stopped;
    if (!outcome.ok) return refused(ctx, `Delete ${name}`, outcome, `/mcps/${enc(name)}`);
    ctx.redirect(`/mcps?done=deleted`);
  });

  router.post('/mcps/:name/tools', async (ctx) => {
    const name = ctx.params.name!;
    const listed = kernel.services.find('upstreams')?.listedTools(name) ?? [];
    if (!definition(name)) return show(ctx, undefined, `Server ${name}`);
    const on = new Set((await readForm(ctx)).getAll('on'));
    // Tools the server lists now, switched by the form; switched-off ones it no longer lists stay off.
    const listedNames = new Set(listed.map((t) => t.name));
    const kept = (definition(name)!.disabledTools ?? []).filter((t) => !listedNames.has(t));
    const disabledTools = [...kept, ...listed.filter((t) => !on.has(t.name)).map((t) => t.name)];
    const outcome = await call(ctx, 'core_mcpserver_update', { name, disabledTools });
    if (!outcome.ok) return refused(ctx, `Tools of ${name}`, outcome, `/mcps/${enc(name)}`);
    ctx.redirect(`/mcps/${enc(name)}?done=tools#tools`);
  });

  const toolPage = (ctx: Koa.Context, name: string, posted: URLSearchParams | undefined, errors: FieldErrors, outcome: CallOutcome | undefined) => {
    const entry = kernel.catalogue.get(name);
    show(ctx, entry && page(`Tool ${entry.name}`, toolBody(entry, posted, errors, outcome)), `Tool ${name}`, errors.size ? 422 : 200);
  };
  router.get('/tools/:name', (ctx) => toolPage(ctx, ctx.params.name!, undefined, new Map(), undefined));
  router.post('/tools/:name', async (ctx) => {
    const entry = kernel.catalogue.get(ctx.params.name!);
    if (!entry) return show(ctx, undefined, `Tool ${ctx.params.name}`);
    const form = await readForm(ctx);
    const errors: FieldErrors = new Map();
    const args = argumentsOf(entry, form, errors);
    toolPage(ctx, entry.name, form, errors, errors.size ? undefined : await calls.call(principalOf(ctx), entry.name, args));
  });
}
