import { lazy, type ComponentType } from 'react';

/**
 * `React.lazy` for a page module with named exports (the codebase has no default exports):
 * `lazyPage(() => import('./home-page.tsx'), 'HomePage')`. Each page becomes its own chunk, so
 * the landing page downloads only what it shows.
 */
export function lazyPage<Module, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
): ComponentType {
  return lazy(async () => {
    const module = await load();
    return { default: module[name] as ComponentType };
  });
}
