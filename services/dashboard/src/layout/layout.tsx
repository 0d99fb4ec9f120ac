import type { ReactNode } from 'react';
import { may } from '../members/roles.js';
import { PostForm } from './components.js';
import type { Frame } from './frame.js';

const ENVIRONMENT_NAME = { sandbox: 'Sandbox', production: 'Production' } as const;

function Navigation({ frame }: { frame: Frame }) {
  const { session } = frame;
  if (!session || session.stage !== 'signed_in') return null;
  const links: [href: string, text: string][] = [
    ['/', 'Home'],
    ['/api-keys', 'API keys'],
    ['/webhooks', 'Webhooks'],
    ['/customers', 'Customers'],
    ['/money', 'Money'],
    ...(may(session.role, 'sandbox_tools', frame.environment)
      ? [['/sandbox', 'Sandbox tools'] as [string, string]]
      : []),
    ['/team', 'Team'],
    ...(may(session.role, 'read_audit', frame.environment) ? [['/audit', 'Audit log'] as [string, string]] : []),
    ['/totp', 'Two-step sign-in'],
  ];
  const current = (href: string) =>
    href === '/' ? frame.currentPath === '/' : frame.currentPath === href || frame.currentPath.startsWith(`${href}/`);
  return (
    <nav aria-label="Main">
      <ul>
        {links.map(([href, text]) => (
          <li key={href}>
            <a href={href} aria-current={current(href) ? 'page' : undefined}>
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The one layout of every page: skip link, environment badge, navigation, one h1. */
export function Layout({ frame, title, children }: { frame: Frame; title: string; children: ReactNode }) {
  const environment = ENVIRONMENT_NAME[frame.environment];
  const { session } = frame;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Corridor ${environment}`}</title>
        <link rel="stylesheet" href="/assets/dashboard.css" />
        <script src="/assets/dashboard.js" defer />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to main content
        </a>
        <header className="site-header">
          <div className="brand">
            <a href="/">Corridor</a>
            <span className={`badge badge-${frame.environment}`}>{environment}</span>
          </div>
          <Navigation frame={frame} />
          {session && session.stage !== 'totp' ? (
            <div className="account">
              <span className="who">
                {session.email} ({session.role})
              </span>
              <PostForm action="/sign-out">
                <button type="submit" className="link-button">
                  Sign out
                </button>
              </PostForm>
            </div>
          ) : null}
        </header>
        <main id="main" tabIndex={-1}>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}
