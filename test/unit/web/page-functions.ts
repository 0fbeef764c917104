/**
 * The functions the widget's page script embeds by their source (`var name = (function ...);`, src/web/liveness-panel.ts),
 * taken out of the served script and evaluated on their own: one that reached outside itself would throw here as in the page.
 */
export function pageFunction(served: string, name: string): (...args: unknown[]) => unknown {
  const line = new RegExp(`var ${name} = (\\(function .*\\));\\n`).exec(served)?.[1];
  if (!line) throw new Error(`${name} is not embedded`);
  return new Function(`'use strict'; return ${line};`)() as (...args: unknown[]) => unknown;
}
