// An address (a URL, an e-mail) that wraps between its parts (addressSegments), with <wbr>: nothing is
// added to the text, so it reads and copies as it is.
import { Fragment } from 'react';
import { addressSegments } from './url';

export function BreakableAddress({ address }: { address: string }) {
  return (
    <>
      {addressSegments(address).map((segment, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {segment}
        </Fragment>
      ))}
    </>
  );
}
