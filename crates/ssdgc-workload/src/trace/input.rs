//! Opening trace files, with transparent gzip / zstd decompression recognised by magic bytes.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

const BUF: usize = 256 * 1024;
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Compression of a stream, as told by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

/// Recognises the compression from the first bytes of a stream.
pub fn sniff(head: &[u8]) -> Compression {
    if head.starts_with(&GZIP_MAGIC) {
        Compression::Gzip
    } else if head.starts_with(&ZSTD_MAGIC) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// Opens a file for buffered reading, decompressing it if needed.
pub fn open_path(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    let f = File::open(path)?;
    decompress(Box::new(BufReader::with_capacity(BUF, f)))
}

/// Wraps `input` in a decoder when it starts with gzip or zstd magic bytes.
/// Concatenated gzip members are read as one stream.
pub fn decompress(mut input: Box<dyn BufRead + Send>) -> io::Result<Box<dyn BufRead + Send>> {
    let head = input.fill_buf()?;
    Ok(match sniff(head) {
        Compression::None => input,
        Compression::Gzip => Box::new(BufReader::with_capacity(
            BUF,
            flate2::bufread::MultiGzDecoder::new(input),
        )),
        Compression::Zstd => Box::new(BufReader::with_capacity(
            BUF,
            zstd::stream::read::Decoder::with_buffer(input)?,
        )),
    })
}
