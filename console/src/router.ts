import { useSyncExternalStore } from 'react';

/**
 * Pages live in the fragment (`/console/#/calls/<id>`): the server serves one page, and a
 * reload or a shared link opens the same view.
 */
const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};
const currentPath = () => location.hash.replace(/^#/, '') || '/analytics';

/** The current page's path segments, e.g. ['calls', '<id>']. */
export function useRoute(): string[] {
  return useSyncExternalStore(subscribe, currentPath).split('/').filter(Boolean);
}

export const href = (...segments: string[]) => `#/${segments.map(encodeURIComponent).join('/')}`;
export const navigate = (...segments: string[]) => {
  location.hash = href(...segments);
};
