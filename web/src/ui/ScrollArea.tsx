// A box a wide table scrolls in sideways, which says so: shadows at the edges that hide more columns
// (styles.css, .table-scroll), a visible scrollbar, and while the table is wider than the box a line
// above it. On a phone nothing else shows that a cut-off table goes on. While it scrolls, the box is a
// named region the keyboard can reach and scroll with the arrow keys.
import { useEffect, useRef, useState, type ReactNode } from 'react';

interface ScrollAreaProps {
  /** The region's name for a screen reader, once it scrolls: "Delivery log". */
  label: string;
  children: ReactNode;
  className?: string;
}

type Overflow = 'none' | 'start' | 'middle' | 'end';

function overflowOf(box: HTMLElement): Overflow {
  const hidden = box.scrollWidth - box.clientWidth;
  if (hidden <= 1) return 'none';
  if (box.scrollLeft <= 1) return 'start';
  return box.scrollLeft >= hidden - 1 ? 'end' : 'middle';
}

export function ScrollArea({ label, children, className }: ScrollAreaProps) {
  const box = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>('none');
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setOverflow(overflowOf(element));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  const scrolls = overflow !== 'none';
  return (
    <>
      {/* Above the table, where it is seen before a long table is scrolled through. */}
      {scrolls ? (
        <p className="scroll-hint" aria-hidden="true">
          {overflow === 'end' ? '← Scroll back for the first columns' : 'Scroll sideways for more columns →'}
        </p>
      ) : null}
      <div
        ref={box}
        className={['table-scroll', className].filter(Boolean).join(' ')}
        onScroll={(event) => setOverflow(overflowOf(event.currentTarget))}
        {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${label} (scrolls sideways)` } : {})}
      >
        {children}
      </div>
    </>
  );
}
