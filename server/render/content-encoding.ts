import Negotiator from 'negotiator'

type Encoding = 'br' | 'gzip' | 'identity'
const negotiated = new Map<string, readonly Encoding[]>()

function acceptedEncodings(acceptEncoding: string): readonly Encoding[] {
  let encodings = negotiated.get(acceptEncoding)
  if (!encodings) {
    const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } })
    encodings = negotiator.encodings(['br', 'gzip', 'identity']) as Encoding[]
    if (negotiated.size < 100) negotiated.set(acceptEncoding, encodings)
  }
  return encodings
}

/**
 * The best precompressed form of a body the client accepts (q-values honoured, `br;q=0` too).
 * Browsers send a handful of distinct Accept-Encoding values; each is negotiated once.
 */
export function pickEncoding(
  forms: { body: Buffer; br?: Buffer | undefined; gzip?: Buffer | undefined },
  acceptEncoding: string | undefined,
): { encoding: 'br' | 'gzip' | null; body: Buffer } {
  if (acceptEncoding) {
    for (const encoding of acceptedEncodings(acceptEncoding)) {
      if (encoding === 'br' && forms.br) return { encoding, body: forms.br }
      if (encoding === 'gzip' && forms.gzip) return { encoding, body: forms.gzip }
      if (encoding === 'identity') break
    }
  }
  return { encoding: null, body: forms.body }
}
