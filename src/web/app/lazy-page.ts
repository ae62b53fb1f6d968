import { createElement, lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * `React.lazy` for a page module with named exports (the codebase has no default exports):
 * `lazyPage(() => import('./tryon-page.tsx'), 'TryOnPage')`. Each page becomes its own chunk, so
 * a visitor downloads only the pages they open. Once a page's code is here, the page renders
 * at once on every later visit instead of suspending for a frame.
 */
export function lazyPage<Module, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
): () => ReturnType<typeof createElement> {
  let loaded: ComponentType | undefined;
  const Lazy = lazy(async () => ({
    default: (loaded ??= (await load())[name] as ComponentType),
  }));
  return function Page() {
    // Chosen once per mounted page: swapping the lazy wrapper for the component later would
    // remount the page and lose its state.
    const [component] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(component);
  };
}

/** `React.lazy` for a component with props: `lazyComponent(async () => (await load()).Gate)`. */
export function lazyComponent<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): LazyExoticComponent<ComponentType<Props>> {
  return lazy(async () => ({ default: await load() }));
}
