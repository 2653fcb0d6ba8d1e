//! How an array is fed: the RAID-0 layout of one volume striped over the drives ([`Stripe`]), or
//! per-disk traces, each disk replaced by a drive ([`Disks`], [`DiskTraces`]).
//!
//! **One striped volume.**
//! The array has `N` identical drives of `L` logical pages each, so `N × L` logical pages. Its space
//! is cut into chunks of `array.chunk` bytes (a whole number `C` of pages); chunk `k` goes to drive
//! `k mod N`, at drive offset `(k / N) × chunk + offset in the chunk`. When `L` is not a multiple of
//! `C`, the last `L mod C` pages of every drive form a final, shorter stripe row: its chunks have
//! `L mod C` pages each, again one per drive in drive order. Every array page thus has exactly one
//! place on one drive and every drive page is used, for any `L`, `C` and `N`; with one drive the
//! layout is the identity.
//!
//! **Per-disk traces** (`array.disks`, AGC/DGC paper §6): a trace whose records carry a disk or
//! volume number (MSR's DiskNumber, DiskSim's device, Systor's LUN, Tencent's VolumeID, …) is read
//! once per listed disk ([`DiskTraces`], records merged by time on the trace's clock), and each
//! disk's records go to the drive that replaces it: `[[0, 1], [2, 5], [3, 4]]` is the paper's
//! 3-drive array (disks 0 and 1 on drive 0, 2 and 5 on drive 1, 3 and 4 on drive 2). A drive of
//! `L` logical pages replacing `n` disks gives each an equal region of `⌊L / n⌋` pages, in list
//! order; a disk's addresses fold into its region (`host.fold`). The array's logical space is the
//! drives' spaces one after the other (a [`Stripe`] whose chunk is a whole drive).

use std::collections::VecDeque;
use std::path::PathBuf;

use crate::config::Config;
use crate::flash::Geometry;
use crate::units::Lpn;
use ssdgc_workload::{IoRecord, TraceOptions, TraceReader, TraceStats, WorkloadError};

/// A run of bytes of a request that lies on one drive, contiguous there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    /// The drive.
    pub drive: u32,
    /// Byte offset on the drive.
    pub offset: u64,
    /// Bytes.
    pub len: u64,
}

/// The RAID-0 layout of an array of identical drives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stripe {
    drives: u32,
    page_size: u64,
    /// Pages per chunk.
    chunk: u64,
    /// Logical pages per drive.
    drive_pages: u64,
    /// Full stripe rows: `drive_pages / chunk`.
    rows: u64,
    /// Pages per drive in the final, shorter row: `drive_pages mod chunk`.
    tail: u64,
}

impl Stripe {
    /// `drives` drives of `drive_pages` logical pages of `page_size` bytes, striped by chunks of
    /// `chunk_bytes` (a positive multiple of the page size).
    pub fn new(drives: u32, chunk_bytes: u64, page_size: u64, drive_pages: u64) -> Stripe {
        assert!(drives >= 1, "an array has at least one drive");
        assert!(
            chunk_bytes > 0 && chunk_bytes.is_multiple_of(page_size),
            "the chunk is a positive multiple of the page size"
        );
        let chunk = chunk_bytes / page_size;
        Stripe {
            drives,
            page_size,
            chunk,
            drive_pages,
            rows: drive_pages / chunk,
            tail: drive_pages % chunk,
        }
    }

    /// The layout a validated configuration describes (the drive as configured).
    pub fn from_config(cfg: &Config) -> Stripe {
        let geo = Geometry::new(cfg);
        Stripe::new(
            cfg.array.drives,
            cfg.array.chunk.0,
            geo.page_size,
            geo.logical_pages as u64,
        )
    }

    /// Drives in the array.
    pub fn drives(&self) -> u32 {
        self.drives
    }

    /// Bytes per page.
    pub fn page_size(&self) -> u64 {
        self.page_size
    }

    /// Chunk size in bytes.
    pub fn chunk_bytes(&self) -> u64 {
        self.chunk * self.page_size
    }

    /// The array's logical pages: drives × one drive's.
    pub fn logical_pages(&self) -> u64 {
        self.drives as u64 * self.drive_pages
    }

    /// The array's logical bytes.
    pub fn logical_bytes(&self) -> u64 {
        self.logical_pages() * self.page_size
    }

    /// Array pages in the full stripe rows.
    fn full_pages(&self) -> u64 {
        self.rows * self.chunk * self.drives as u64
    }

    /// The drive and drive page of array page `page` (below [`Stripe::logical_pages`]).
    #[inline]
    pub fn page(&self, page: u64) -> (usize, Lpn) {
        if self.drives == 1 {
            return (0, page as Lpn);
        }
        debug_assert!(page < self.logical_pages());
        let n = self.drives as u64;
        let full = self.full_pages();
        if page < full {
            let k = page / self.chunk;
            (
                (k % n) as usize,
                ((k / n) * self.chunk + page % self.chunk) as Lpn,
            )
        } else {
            let t = page - full;
            (
                (t / self.tail) as usize,
                (self.rows * self.chunk + t % self.tail) as Lpn,
            )
        }
    }

    /// The array page held by page `page` of drive `drive` (the inverse of [`Stripe::page`]).
    #[inline]
    pub fn array_page(&self, drive: usize, page: Lpn) -> u64 {
        if self.drives == 1 {
            return page as u64;
        }
        let (n, p, d) = (self.drives as u64, page as u64, drive as u64);
        let row = p / self.chunk;
        if row < self.rows {
            (row * n + d) * self.chunk + p % self.chunk
        } else {
            self.full_pages() + d * self.tail + (p - self.rows * self.chunk)
        }
    }

    /// The drive and drive byte offset of array byte `byte`.
    pub fn locate(&self, byte: u64) -> (u32, u64) {
        let (d, p) = self.page(byte / self.page_size);
        (d as u32, p as u64 * self.page_size + byte % self.page_size)
    }

    /// The bytes `[offset, offset + len)` of the array (inside its logical space) as runs on the
    /// drives, in array order; each run ends at a chunk boundary or at the end of the range.
    pub fn split(&self, offset: u64, len: u64) -> impl Iterator<Item = Extent> + '_ {
        assert!(
            offset + len <= self.logical_bytes(),
            "bytes {offset}..{} lie beyond the array's {} bytes",
            offset + len,
            self.logical_bytes()
        );
        let end = offset + len;
        let mut at = offset;
        std::iter::from_fn(move || {
            if at >= end {
                return None;
            }
            let full = self.full_pages() * self.page_size;
            let boundary = if at < full {
                let c = self.chunk * self.page_size;
                (at / c + 1) * c
            } else {
                let c = self.tail * self.page_size;
                full + ((at - full) / c + 1) * c
            };
            let stop = boundary.min(end);
            let (drive, off) = self.locate(at);
            let e = Extent {
                drive,
                offset: off,
                len: stop - at,
            };
            at = stop;
            Some(e)
        })
    }
}

/// Where each disk of per-disk traces lies in the array's logical space (`array.disks`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disks {
    /// (disk, first array page of its region, pages in the region), by disk number.
    regions: Vec<(u64, u64, u64)>,
}

impl Disks {
    /// The regions of `lists` (the disks of each drive, in drive order) on drives of
    /// `drive_pages` logical pages laid out one after the other.
    pub fn new(lists: &[Vec<u64>], drive_pages: u64) -> Disks {
        let mut regions = Vec::new();
        for (d, disks) in lists.iter().enumerate() {
            let span = drive_pages / disks.len().max(1) as u64;
            for (k, &disk) in disks.iter().enumerate() {
                regions.push((disk, d as u64 * drive_pages + k as u64 * span, span));
            }
        }
        regions.sort_unstable();
        Disks { regions }
    }

    /// The region of disk `disk`: (first array page, pages), or `None` for a disk not listed.
    #[inline]
    pub fn region(&self, disk: u64) -> Option<(u64, u64)> {
        self.regions
            .binary_search_by_key(&disk, |r| r.0)
            .ok()
            .map(|i| (self.regions[i].1, self.regions[i].2))
    }

    /// The disks, in number order.
    pub fn disks(&self) -> impl Iterator<Item = u64> + '_ {
        self.regions.iter().map(|r| r.0)
    }
}

/// One disk's records: a reader of a trace keeping that disk's (volume's) records.
struct DiskSource {
    disk: u64,
    reader: TraceReader,
    /// Its next record, not yet handed out.
    head: Option<IoRecord>,
    /// Its first record's time after the earliest first record of every disk, ns.
    shift: u64,
}

/// Per-disk traces merged into one stream in time order, each record tagged with its disk
/// ([`DiskTraces::last_disk`]). Times are on the traces' own clock, relative to the earliest
/// first record of all disks (a reader makes times relative to its own first record; the shift
/// between readers restores their offsets). Ties go to the disk listed first. A malformed line
/// of any reader is handed out as an error in its turn; reading goes on.
pub struct DiskTraces {
    sources: Vec<DiskSource>,
    pending: VecDeque<WorkloadError>,
    last: Option<u64>,
}

impl DiskTraces {
    /// Opens `(disk, file)` pairs (several disks may name one file: it is read once per disk,
    /// keeping that disk's records) with the options `opts` (its `volume` is each disk's).
    pub fn open(
        sources: &[(u64, PathBuf)],
        opts: &TraceOptions,
    ) -> Result<DiskTraces, WorkloadError> {
        let mut pending = VecDeque::new();
        let mut opened = Vec::with_capacity(sources.len());
        for (disk, path) in sources {
            let o = TraceOptions {
                volume: Some(*disk),
                ..opts.clone()
            };
            let mut reader = ssdgc_workload::open_trace(path, &o)?;
            let head = next_ok(&mut reader, &mut pending);
            let base = reader.first_time_ns();
            opened.push((*disk, reader, head, base));
        }
        let start = opened.iter().filter_map(|o| o.3).min().unwrap_or(0);
        let mut v = Vec::with_capacity(opened.len());
        for (disk, reader, head, base) in opened {
            let shift = u64::try_from(base.unwrap_or(start) - start).map_err(|_| {
                WorkloadError::new(
                    reader.name(),
                    0,
                    format!(
                        "disk {disk} starts more than 2^64 ns after the earliest disk of the trace"
                    ),
                )
            })?;
            v.push(DiskSource {
                disk,
                reader,
                head,
                shift,
            });
        }
        Ok(DiskTraces {
            sources: v,
            pending,
            last: None,
        })
    }

    /// The disk of the record handed out last.
    pub fn last_disk(&self) -> Option<u64> {
        self.last
    }

    /// The trace format (the first disk's reader's).
    pub fn format(&self) -> String {
        self.sources
            .first()
            .map(|s| s.reader.format().name().to_string())
            .unwrap_or_default()
    }

    /// What the readers did, summed (a file read once per disk counts once per disk).
    pub fn stats(&self) -> TraceStats {
        let mut t = TraceStats::default();
        for s in &self.sources {
            let x = s.reader.stats();
            t.lines += x.lines;
            t.blank += x.blank;
            t.skipped += x.skipped;
            t.filtered += x.filtered;
            t.errors += x.errors;
            t.records += x.records;
        }
        t
    }
}

/// The next record of `reader`, its errors before it queued in `pending`.
fn next_ok(reader: &mut TraceReader, pending: &mut VecDeque<WorkloadError>) -> Option<IoRecord> {
    loop {
        match reader.next()? {
            Ok(r) => return Some(r),
            Err(e) => pending.push_back(e),
        }
    }
}

impl Iterator for DiskTraces {
    type Item = Result<IoRecord, WorkloadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.pending.pop_front() {
            return Some(Err(e));
        }
        let i = self
            .sources
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.head.map(|h| (s.shift.saturating_add(h.time_ns), i)))
            .min()?
            .1;
        let s = &mut self.sources[i];
        let mut rec = s.head.take()?;
        rec.time_ns = s.shift.saturating_add(rec.time_ns);
        s.head = next_ok(&mut s.reader, &mut self.pending);
        self.last = Some(s.disk);
        Some(Ok(rec))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout written out byte by byte, the way the configuration documents it.
    fn naive(s: &Stripe, byte: u64) -> (u32, u64) {
        let (n, ps) = (s.drives as u64, s.page_size);
        let chunk = s.chunk * ps;
        let full = s.rows * n * chunk;
        if byte < full {
            let k = byte / chunk;
            ((k % n) as u32, (k / n) * chunk + byte % chunk)
        } else {
            let tail = s.tail * ps;
            let t = byte - full;
            ((t / tail) as u32, s.rows * chunk + t % tail)
        }
    }

    /// Checks every byte of `[offset, offset + len)` against the naive layout, and that the runs
    /// are contiguous on their drive, within one chunk, and cover the range in order.
    fn check_request(s: &Stripe, offset: u64, len: u64) {
        let mut at = offset;
        for e in s.split(offset, len) {
            assert!(e.len > 0);
            for i in 0..e.len {
                assert_eq!(
                    naive(s, at + i),
                    (e.drive, e.offset + i),
                    "byte {} of request {offset}+{len}",
                    at + i
                );
            }
            // A run never crosses a chunk: its first and last bytes are in one chunk of the drive.
            let c = s.chunk * s.page_size;
            assert_eq!(e.offset / c, (e.offset + e.len - 1) / c, "run {e:?}");
            at += e.len;
        }
        assert_eq!(at, offset + len, "the runs cover the request");
    }

    #[test]
    fn requests_map_byte_by_byte_to_their_drive_and_offset() {
        // 3 drives of 20 pages of 512 B, chunks of 4 pages (2 KiB): 5 full rows, no tail.
        let s = Stripe::new(3, 2048, 512, 20);
        assert_eq!(s.logical_pages(), 60);
        // Inside one chunk; exactly one chunk; across a chunk (and drive) boundary; across a whole
        // stripe row back to drive 0; unaligned start and end; the last bytes of the array.
        for (off, len) in [
            (0, 1),
            (100, 900),
            (0, 2048),
            (2000, 100),
            (1536, 4096),
            (3 * 2048 - 10, 20),
            (777, 3 * 2048 + 555),
            (s.logical_bytes() - 3000, 3000),
        ] {
            check_request(&s, off, len);
        }
        // Chunk 4 (bytes 8192..10240) is drive 1's second chunk, at drive offset 2048.
        assert_eq!(s.locate(8192 + 5), (1, 2048 + 5));
        let runs: Vec<Extent> = s.split(2048 - 512, 1024).collect();
        assert_eq!(
            runs,
            vec![
                Extent {
                    drive: 0,
                    offset: 1536,
                    len: 512
                },
                Extent {
                    drive: 1,
                    offset: 0,
                    len: 512
                },
            ]
        );
    }

    #[test]
    fn chunks_larger_than_requests_keep_them_on_one_drive() {
        // 64 KiB chunks of 4 KiB pages over 2 drives; 16 KiB requests.
        let s = Stripe::new(2, 64 << 10, 4096, 64);
        for off in (0..s.logical_bytes() - (16 << 10)).step_by(12 << 10) {
            let runs: Vec<Extent> = s.split(off, 16 << 10).collect();
            let crosses = off / (64 << 10) != (off + (16 << 10) - 1) / (64 << 10);
            assert_eq!(runs.len(), if crosses { 2 } else { 1 }, "request at {off}");
            check_request(&s, off, 16 << 10);
        }
    }

    #[test]
    fn a_short_last_row_uses_every_drive_page_once() {
        // 10 pages per drive, chunks of 4: rows of 4, 4, then a last row of 2 pages per drive.
        for drives in [1, 2, 3, 5] {
            let s = Stripe::new(drives, 4 * 512, 512, 10);
            let mut seen = vec![false; (drives * 10) as usize];
            for a in 0..s.logical_pages() {
                let (d, p) = s.page(a);
                assert!((p as u64) < 10, "page {a} lands beyond drive {d}");
                let slot = d * 10 + p as usize;
                assert!(!seen[slot], "two array pages on drive {d} page {p}");
                seen[slot] = true;
                assert_eq!(s.array_page(d, p), a);
            }
            check_request(&s, 0, s.logical_bytes());
            check_request(&s, s.logical_bytes() - 1500, 1500);
        }
    }

    #[test]
    fn one_drive_is_the_identity() {
        let s = Stripe::new(1, 64 << 10, 4096, 1000);
        for a in [0, 1, 15, 16, 999] {
            assert_eq!(s.page(a), (0, a as Lpn));
            assert_eq!(s.array_page(0, a as Lpn), a);
        }
        assert_eq!(s.split(4096 * 10 + 7, 100_000).count(), 3);
    }
}
