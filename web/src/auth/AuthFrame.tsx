// The frame of the pages before a session: the brand and what Concord is in one line, the page's title,
// its form and links below.
import type { ReactNode } from 'react';

export function AuthFrame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <p className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} /> Concord
        </p>
        <p className="auth-tagline">Labelled training data from a crowd you can trust, through one API.</p>
        <h1>{title}</h1>
        {children}
        {footer ? <div className="auth-footer">{footer}</div> : null}
      </div>
    </main>
  );
}
