/**
 * The settings page: which config.yaml keys a running Switchboard applies only at restart
 * (schemas/: `x-applies: restart`), and which of them config.yaml now sets otherwise than the
 * process started with, marked "changes on restart". Every other key applies on save.
 */
import { restartOnlyPaths, type KernelApi } from '../../kernel/index.js';
import { html, page, type Html } from './html.js';
import { listTable } from './list-table.js';

export function settingsPage(kernel: KernelApi): Html {
  const pending = new Map(kernel.config.restartRequired().map((c) => [c.key, c]));
  const keys = restartOnlyPaths().map((p) => p.join('.'));
  const rows = keys.map((key) => {
    const under = [...pending.values()].filter((c) => c.key === key || c.key.startsWith(`${key}.`));
    return html`<tr>
      <td><code>${key}</code></td>
      <td>
        ${
          under.length
            ? under.map(
                (c) =>
                  html`<p class="bad">
                    <strong>changes on restart</strong>: <code>${c.key}</code>${
                      c.inForce !== undefined || c.configured !== undefined
                        ? ` (${String(c.inForce ?? 'unset')} in force, ${String(c.configured ?? 'unset')} configured)`
                        : ''
                    }
                  </p>`,
              )
            : html`<span class="muted">as configured</span>`
        }
      </td>
    </tr>`;
  });
  return page(
    'Settings',
    html`<p>
        A saved <code>config.yaml</code> applies while Switchboard runs, every key at once, except the keys below: the process reads them at startup.
        ${
          pending.size
            ? html`<strong role="status"
                >${pending.size === 1 ? '1 key is' : `${pending.size} keys are`} configured otherwise than in force: restart Switchboard to apply
                ${pending.size === 1 ? 'it' : 'them'}.</strong
              >`
            : 'Each is in force as configured.'
        }
      </p>
      ${listTable(['Restart-only key', 'Now'], rows, 'No key needs a restart.')}`,
  );
}
