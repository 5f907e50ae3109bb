// The frame of the pages before a session: the brand, the page's title, its form and links below.
import type { ReactNode } from 'react';

export function AuthFrame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <p className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} /> Concord
        </p>
        <h1>{title}</h1>
        {children}
        {footer ? <div className="auth-footer">{footer}</div> : null}
      </div>
    </main>
  );
}
