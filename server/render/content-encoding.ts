import { Readable } from 'node:stream'
import { constants, createBrotliCompress, createGzip } from 'node:zlib'
import type { FastifyReply } from 'fastify'
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
 * The client's first choice among the encodings at hand (q-values honoured, `br;q=0` too), or
 * null for the body as it is. Browsers send a handful of distinct Accept-Encoding values; each
 * is negotiated once.
 */
function chooseEncoding(
  acceptEncoding: string | undefined,
  available: (encoding: 'br' | 'gzip') => boolean,
): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    if (encoding === 'identity') return null
    if (available(encoding)) return encoding
  }
  return null
}

/** The best precompressed form of a body the client accepts. */
export function pickEncoding(
  forms: { body: Buffer; br?: Buffer | undefined; gzip?: Buffer | undefined },
  acceptEncoding: string | undefined,
): { encoding: 'br' | 'gzip' | null; body: Buffer } {
  const encoding = chooseEncoding(acceptEncoding, (name) => forms[name] !== undefined)
  return { encoding, body: (encoding && forms[encoding]) ?? forms.body }
}

/** Smaller bodies are sent as they are: compressing them saves less than a packet. */
export const COMPRESS_MIN_BYTES = 1024

/** Brotli's quality for bodies compressed while they are sent: close to gzip's speed. */
const STREAMING_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }

/**
 * A body made for this request (a rendered page, a 404 page), compressed as the client
 * accepts: brotli, else gzip. Sets `Content-Encoding` and adds `Accept-Encoding` to `Vary`.
 * Pages kept in memory are compressed once instead (`pickEncoding`).
 */
export function compressForClient(
  reply: FastifyReply,
  acceptEncoding: string | undefined,
  body: Readable | Buffer,
): Readable | Buffer {
  const vary = reply.getHeader('vary')
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding')
  if (Buffer.isBuffer(body) && body.length < COMPRESS_MIN_BYTES) return body
  const encoding = chooseEncoding(acceptEncoding, () => true)
  if (!encoding) return body
  const compressor = encoding === 'br' ? createBrotliCompress(STREAMING_BROTLI) : createGzip()
  const source = Buffer.isBuffer(body) ? Readable.from([body]) : body
  // A failed source ends the compressed stream with the error, which ends the response.
  source.once('error', (error) => compressor.destroy(error))
  source.pipe(compressor)
  reply.header('content-encoding', encoding)
  return compressor
}
