import type { Response } from 'express';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { stateOf } from '../http/request-state.js';
import { FrameContext, type Frame } from './frame.js';
import { Layout } from './layout.js';

export function frameOf(res: Response): Frame {
  const { environment, session, formToken } = stateOf(res);
  return {
    environment,
    session: session && session.stage !== 'totp' ? session : undefined,
    csrfToken: session?.csrfToken ?? formToken ?? '',
    currentPath: res.req.path,
  };
}

/** A whole page as HTML; JSX escapes every value, so a name holding markup shows as text. */
export function renderPage(frame: Frame, title: string, body: ReactNode): string {
  return `<!doctype html>${renderToStaticMarkup(
    <FrameContext value={frame}>
      <Layout frame={frame} title={title}>
        {body}
      </Layout>
    </FrameContext>,
  )}`;
}

/** Answers a page: never cached (sessions, secrets), never sniffed. */
export function sendPage(res: Response, status: number, title: string, body: ReactNode): void {
  res
    .status(status)
    .setHeader('Cache-Control', 'no-store')
    .type('html')
    .send(renderPage(frameOf(res), title, body));
}
