import { createElement, lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';

/** A page loaded on demand, whose code can also be fetched ahead of its first render. */
export interface LazyPage {
  (): ReturnType<typeof createElement>;
  /** Loads the page's code; once it is here, the page renders without suspending. */
  preload: () => Promise<void>;
}

/**
 * `React.lazy` for a page module with named exports (the codebase has no default exports):
 * `lazyPage(() => import('./home-page.tsx'), 'HomePage')`. Each page becomes its own chunk, so
 * the landing page downloads only what it shows. After `preload()` the page renders at once,
 * which hydrating prerendered markup needs (see main.tsx): a part that suspends then is redrawn
 * from scratch as soon as anything above it changes.
 */
export function lazyPage<Module, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
): LazyPage {
  let loaded: ComponentType | undefined;
  const resolve = async () => (loaded ??= (await load())[name] as ComponentType);
  const Lazy = lazy(async () => ({ default: await resolve() }));
  function Page() {
    // Chosen once per mounted page: swapping the lazy wrapper for the component later would
    // remount the page and lose its state.
    const [component] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(component);
  }
  Page.preload = async () => {
    await resolve();
  };
  return Page;
}

/** `React.lazy` for a component with props: `lazyComponent(async () => (await load()).Gate)`. */
export function lazyComponent<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): LazyExoticComponent<ComponentType<Props>> {
  return lazy(async () => ({ default: await load() }));
}
