import { createContext, useContext } from 'react';
import type { Environment } from '../members/roles.js';
import type { Session } from '../sessions/session-store.js';

/** What every template may read: the environment, who is signed in, this page's CSRF token. */
export interface Frame {
  environment: Environment;
  /** Set once the member is signed in (stage signed_in or enrol_totp). */
  session?: Session;
  /** The token every form of the page carries (the session's, or the anonymous forms' cookie's). */
  csrfToken: string;
  currentPath: string;
}

export const FrameContext = createContext<Frame>({ environment: 'sandbox', csrfToken: '', currentPath: '/' });

export const useFrame = (): Frame => useContext(FrameContext);
