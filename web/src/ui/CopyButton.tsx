// Copying a text to the clipboard, with the outcome said next to the button (and read out). The
// clipboard API exists only in secure contexts (https or localhost): elsewhere, say what to do.
import { useState } from 'react';
import { Button } from './Button';

interface CopyButtonProps {
  text: string;
  label: string;
  variant?: 'secondary' | 'ghost';
  /** Told once the text is on the clipboard (a secret's dialog may close from then on). */
  onCopied?: () => void;
}

export function CopyButton({ text, label, variant = 'secondary', onCopied }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
      onCopied?.();
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <Button variant={variant} onClick={copy}>
        {label}
      </Button>
      <span className="copy-status" role="status">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'This browser did not allow copying: select the text and copy it yourself.' : ''}
      </span>
    </>
  );
}
