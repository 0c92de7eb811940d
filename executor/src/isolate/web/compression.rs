//! zlib for `compression.js`: CompressionStream and DecompressionStream in the three formats
//! Workers has (`gzip`, `deflate`, `deflate-raw`), on `flate2` over zlib itself, so the bytes
//! are the ones workerd writes (zlib's default level, a gzip header with no name, mtime 0 and
//! the Unix OS byte).
//!
//! A stream's state lives in a [`Codec`], a class instance the script holds: `push(bytes)`
//! answers the output so far, `finish()` the rest. Decompression refuses corrupt input, data
//! after the end of the stream, and a stream that ends early, each answered as workerd's text
//! (a string) that the script throws as a TypeError.

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};
use rquickjs::class::Trace;
use rquickjs::{Class, Ctx, Function, JsLifetime, Object, TypedArray, Value};

/// The gzip header workerd writes: magic, deflate, no flags, mtime 0, no extra flags, Unix.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];

/// workerd's texts for a stream that cannot be decompressed.
const CORRUPT: &str = "Decompression failed.";
const TRAILING: &str = "Trailing bytes after end of compressed data";
const INCOMPLETE: &str = "Called close() on a decompression stream with incomplete data";

type Step = Result<Vec<u8>, &'static str>;

enum State {
    Compress {
        zlib: Compress,
        gzip: Option<flate2::Crc>,
        header_written: bool,
    },
    Decompress {
        zlib: Decompress,
        gzip: Option<GzipReader>,
        done: bool,
    },
    Failed,
}

/// A gzip stream being read: the header, then deflate data, then the trailer.
struct GzipReader {
    header: Vec<u8>,
    header_done: bool,
    crc: flate2::Crc,
    trailer: Vec<u8>,
}

/// One stream's zlib state.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "Codec")]
pub(crate) struct Codec {
    #[qjs(skip_trace)]
    state: State,
}

#[rquickjs::methods]
impl Codec {
    /// Feeds bytes in; answers what came out, or the text of why decompression failed.
    pub fn push<'js>(
        &mut self,
        ctx: Ctx<'js>,
        bytes: TypedArray<'js, u8>,
    ) -> rquickjs::Result<Value<'js>> {
        // SAFETY: the bytes are copied through zlib before any JavaScript runs again.
        let input = unsafe { bytes.as_bytes() }.unwrap_or_default().to_vec();
        answer(ctx, self.run(&input, false))
    }

    /// Ends the input; answers the last bytes, or the text of why the compressed stream was
    /// incomplete or corrupt.
    pub fn finish<'js>(&mut self, ctx: Ctx<'js>) -> rquickjs::Result<Value<'js>> {
        answer(ctx, self.run(&[], true))
    }
}

fn answer<'js>(ctx: Ctx<'js>, step: Step) -> rquickjs::Result<Value<'js>> {
    match step {
        Ok(out) => TypedArray::new(ctx, out).map(|a| a.into_value()),
        Err(text) => rquickjs::String::from_str(ctx, text).map(|s| s.into_value()),
    }
}

impl Codec {
    fn new(format: &str, compress: bool) -> Option<Self> {
        let (zlib_header, gzip) = match format {
            "gzip" => (false, true),
            "deflate" => (true, false),
            "deflate-raw" => (false, false),
            _ => return None,
        };
        let state = if compress {
            State::Compress {
                zlib: Compress::new(Compression::default(), zlib_header),
                gzip: gzip.then(flate2::Crc::new),
                header_written: false,
            }
        } else {
            State::Decompress {
                zlib: Decompress::new(zlib_header),
                gzip: gzip.then(|| GzipReader {
                    header: Vec::new(),
                    header_done: false,
                    crc: flate2::Crc::new(),
                    trailer: Vec::new(),
                }),
                done: false,
            }
        };
        Some(Codec { state })
    }

    fn run(&mut self, input: &[u8], finish: bool) -> Step {
        let result = match &mut self.state {
            State::Compress {
                zlib,
                gzip,
                header_written,
            } => Ok(compress(zlib, gzip, header_written, input, finish)),
            State::Decompress { zlib, gzip, done } => decompress(zlib, gzip, done, input, finish),
            State::Failed => Err(CORRUPT),
        };
        if result.is_err() {
            self.state = State::Failed;
        }
        result
    }
}

fn compress(
    zlib: &mut Compress,
    gzip: &mut Option<flate2::Crc>,
    header_written: &mut bool,
    input: &[u8],
    finish: bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() / 2 + 64);
    if let Some(crc) = gzip.as_mut() {
        crc.update(input);
    }
    let flush = if finish {
        FlushCompress::Finish
    } else {
        FlushCompress::None
    };
    let mut offset = 0;
    loop {
        if out.capacity() - out.len() < 64 {
            out.reserve(out.capacity().max(256));
        }
        let before_in = zlib.total_in();
        let status = zlib
            .compress_vec(&input[offset..], &mut out, flush)
            .expect("zlib refuses no input while compressing");
        offset += (zlib.total_in() - before_in) as usize;
        let full = out.len() == out.capacity();
        match status {
            Status::StreamEnd => break,
            _ if offset >= input.len() && !full && !finish => break,
            Status::BufError if !full => break,
            _ => {}
        }
    }
    if let Some(crc) = gzip.as_ref() {
        // The header goes out with the first compressed bytes, as one chunk (as workerd's).
        if !*header_written && (!out.is_empty() || finish) {
            out.splice(0..0, GZIP_HEADER);
            *header_written = true;
        }
        if finish {
            out.extend_from_slice(&crc.sum().to_le_bytes());
            out.extend_from_slice(&crc.amount().to_le_bytes());
        }
    }
    out
}

fn decompress(
    zlib: &mut Decompress,
    gzip: &mut Option<GzipReader>,
    done: &mut bool,
    input: &[u8],
    finish: bool,
) -> Step {
    let out = Vec::with_capacity(input.len() * 3 + 64);
    if let Some(reader) = gzip.as_mut()
        && !reader.header_done
    {
        reader.header.extend_from_slice(input);
        return match gzip_header_len(&reader.header) {
            HeaderScan::Complete(len) => {
                let rest = reader.header.split_off(len);
                reader.header_done = true;
                reader.header = Vec::new();
                decompress_body(zlib, gzip, done, &rest, finish, out)
            }
            HeaderScan::Invalid => Err(CORRUPT),
            HeaderScan::Incomplete if finish => Err(INCOMPLETE),
            HeaderScan::Incomplete => Ok(out),
        };
    }
    decompress_body(zlib, gzip, done, input, finish, out)
}

fn decompress_body(
    zlib: &mut Decompress,
    gzip: &mut Option<GzipReader>,
    done: &mut bool,
    input: &[u8],
    finish: bool,
    mut out: Vec<u8>,
) -> Step {
    let mut offset = 0;
    if *done {
        // Only a gzip trailer may follow the end of the deflate data.
        return trailer(gzip, input, finish, out);
    }
    loop {
        if out.capacity() - out.len() < 256 {
            out.reserve(out.capacity().max(1024));
        }
        let before_in = zlib.total_in();
        let before_out = out.len();
        let status = zlib
            .decompress_vec(&input[offset..], &mut out, FlushDecompress::None)
            .map_err(|_| CORRUPT)?;
        offset += (zlib.total_in() - before_in) as usize;
        if let Some(reader) = gzip.as_mut() {
            reader.crc.update(&out[before_out..]);
        }
        match status {
            Status::StreamEnd => {
                *done = true;
                let rest = &input[offset..];
                return trailer(gzip, rest, finish, out);
            }
            _ => {
                let progressed = out.len() > before_out || zlib.total_in() > before_in;
                if offset >= input.len() && out.len() < out.capacity() {
                    break;
                }
                if !progressed && out.len() < out.capacity() {
                    break;
                }
            }
        }
    }
    if finish {
        // The input ended before the compressed stream did.
        return Err(INCOMPLETE);
    }
    Ok(out)
}

fn trailer(gzip: &mut Option<GzipReader>, rest: &[u8], finish: bool, out: Vec<u8>) -> Step {
    match gzip.as_mut() {
        None if !rest.is_empty() => Err(TRAILING),
        None => Ok(out),
        Some(reader) => {
            reader.trailer.extend_from_slice(rest);
            if reader.trailer.len() > 8 {
                return Err(TRAILING);
            }
            if reader.trailer.len() == 8 {
                let word = |at: usize| {
                    u32::from_le_bytes([
                        reader.trailer[at],
                        reader.trailer[at + 1],
                        reader.trailer[at + 2],
                        reader.trailer[at + 3],
                    ])
                };
                if word(0) != reader.crc.sum() || word(4) != reader.crc.amount() {
                    return Err(CORRUPT);
                }
            } else if finish {
                return Err(INCOMPLETE);
            }
            Ok(out)
        }
    }
}

enum HeaderScan {
    Complete(usize),
    Incomplete,
    Invalid,
}

/// The length of a gzip member header at the start of `bytes` (RFC 1952, section 2.3).
fn gzip_header_len(bytes: &[u8]) -> HeaderScan {
    if bytes.len() < 10 {
        if bytes
            .iter()
            .zip(GZIP_HEADER.iter().take(3))
            .any(|(a, b)| a != b)
        {
            return HeaderScan::Invalid;
        }
        return HeaderScan::Incomplete;
    }
    if bytes[0] != 0x1f || bytes[1] != 0x8b || bytes[2] != 8 {
        return HeaderScan::Invalid;
    }
    let flags = bytes[3];
    let mut at = 10;
    if flags & 0x04 != 0 {
        let Some(extra) = bytes.get(at..at + 2) else {
            return HeaderScan::Incomplete;
        };
        at += 2 + u16::from_le_bytes([extra[0], extra[1]]) as usize;
    }
    for bit in [0x08, 0x10] {
        if flags & bit != 0 {
            match bytes
                .get(at..)
                .and_then(|rest| rest.iter().position(|&b| b == 0))
            {
                Some(zero) => at += zero + 1,
                None => return HeaderScan::Incomplete,
            }
        }
    }
    if flags & 0x02 != 0 {
        at += 2;
    }
    if bytes.len() < at {
        return HeaderScan::Incomplete;
    }
    HeaderScan::Complete(at)
}

pub(super) fn natives<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
    // (format, compress) -> a Codec, or undefined for an unknown format.
    natives.set(
        "codec",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>,
             format: String,
             compress: bool|
             -> rquickjs::Result<Option<Class<'js, Codec>>> {
                match Codec::new(&format, compress) {
                    Some(codec) => Class::instance(ctx, codec).map(Some),
                    None => Ok(None),
                }
            },
        )?,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Codec;

    fn round_trip(format: &str, data: &[u8], chunk: usize) -> Vec<u8> {
        let mut c = Codec::new(format, true).unwrap();
        let mut packed = Vec::new();
        for piece in data.chunks(chunk.max(1)) {
            packed.extend(c.run(piece, false).unwrap());
        }
        packed.extend(c.run(&[], true).unwrap());
        let mut d = Codec::new(format, false).unwrap();
        let mut out = Vec::new();
        for piece in packed.chunks(3) {
            out.extend(d.run(piece, false).unwrap());
        }
        out.extend(d.run(&[], true).unwrap());
        out
    }

    /// The bytes workerd writes for "hello hello hello" (measured on the reference).
    #[test]
    fn compressed_bytes_are_workerds() {
        let mut c = Codec::new("deflate-raw", true).unwrap();
        let mut out = c.run(b"hello hello hello", false).unwrap();
        out.extend(c.run(&[], true).unwrap());
        assert_eq!(out, [203, 72, 205, 201, 201, 87, 200, 64, 144, 0]);
        let mut c = Codec::new("gzip", true).unwrap();
        let mut out = c.run(b"hello hello hello", false).unwrap();
        out.extend(c.run(&[], true).unwrap());
        assert_eq!(&out[..10], &[31, 139, 8, 0, 0, 0, 0, 0, 0, 3]);
        assert_eq!(out.len(), 28);
    }

    #[test]
    fn every_format_round_trips_in_any_chunking() {
        let data: Vec<u8> = (0..50_000u32).map(|i| (i * 7 % 251) as u8).collect();
        for format in ["gzip", "deflate", "deflate-raw"] {
            for chunk in [1, 7, 4096, 100_000] {
                assert_eq!(round_trip(format, &data, chunk), data, "{format} / {chunk}");
            }
        }
    }

    #[test]
    fn corrupt_truncated_and_trailing_input_is_refused() {
        let mut d = Codec::new("gzip", false).unwrap();
        assert_eq!(d.run(&[1, 2, 3, 4], false), Err(super::CORRUPT));
        let mut c = Codec::new("deflate", true).unwrap();
        let mut packed = c.run(b"some text", false).unwrap();
        packed.extend(c.run(&[], true).unwrap());
        let mut d = Codec::new("deflate", false).unwrap();
        assert_eq!(
            d.run(&packed[..packed.len() - 2], true),
            Err(super::INCOMPLETE)
        );
        let mut d = Codec::new("deflate", false).unwrap();
        let mut longer = packed.clone();
        longer.push(0);
        assert_eq!(d.run(&longer, true), Err(super::TRAILING));
    }
}
