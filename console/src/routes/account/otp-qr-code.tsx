import { useT } from '../../i18n/use-t';
import { useEffect, useState } from 'react';

/**
 * The `otpauth://` URI of a new authenticator secret as a QR code, for the phone's camera: drawn
 * as SVG by `qrcode` and shown as an `<img>` of a `data:` URL (the console's CSP allows `img-src
 * data:`; no inline script or style, no canvas). The secret's text stays beside it for typing.
 */
export function OtpQrCode({ uri }: { uri: string }) {
  const t = useT();
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    // Loaded when first needed, so the QR encoder is no part of the console's first load.
    import('qrcode')
      .then((QRCode) => QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then((svg) => current && setSource(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => current && setSource(null));
    return () => {
      current = false;
    };
  }, [uri]);
  if (!source) return null;
  return <img className="otp-qr" src={source} width={180} height={180} alt={t('account.twoFactor.qrAlt')} />;
}
