//! An aged drive as a value: the inputs ageing depends on ([`AgeingKey`]), the FTL state it
//! leaves behind in every drive of a run ([`AgedState`]), and the file format that keeps it
//! across runs (`ssdgc --save-state` / `--load-state`).
//!
//! # What ageing depends on
//!
//! Preconditioning ([`super::run`]) writes through the FTL and collects with the shared GC
//! mechanism, with the run's seed on its own random stream, before any simulated time: its result
//! depends on nothing but what builds the FTL and what drives the writes. The key lists exactly
//! that, for the drive as the GC scheme sees it (the plane-level `superblock` simulates a drive of
//! one plane per die):
//!
//! | key | from |
//! |---|---|
//! | `ageing` | the version of the ageing algorithm ([`AGEING_VERSION`]) |
//! | `precondition` | `precondition.mode` / `--precondition` and `precondition.overwrites` |
//! | `seed` | `--seed` |
//! | `drives` | `array.drives` (each drive ages on its own random stream) |
//! | `geometry` | `geometry.*`: channels, chips, dies, planes, blocks, pages, page size, overprovision |
//! | `allocation` | `ftl.allocation` |
//! | `trigger` | the GC threshold in blocks and, with `gc.trigger = "pages"`, in pages (from `gc.threshold`, `gc.trigger`, and `ftl.hot_cold`'s larger reserve) |
//! | `pool` | `ftl.pool` |
//! | `streams` | the write streams' layout (`ftl.hot_to`) |
//! | `hot_cold` | `ftl.hot_cold` |
//! | `victim` | `gc.victim`, with its parameters |
//! | `ftl` | every FTL parameter at once (a catch-all: a parameter added later is an input too; `ftl.mapping` and the log-block settings among them) |
//! | `workload` | with `trace` preconditioning only: the workload ([`crate::host::Workload::identity`]: a trace's path, size and reading options — format, volume, time unit, event — or a synthetic spec with its logical space) |
//! | `array` | with `trace` preconditioning only: `array.*` (how the workload's pages spread over the drives) |
//!
//! Everything else — timing, the GC scheme and its axes (`gc.when`, `gc.planes`, …), the host
//! settings, the workload unless it preconditions — only matters once the run starts, so runs that
//! differ only there can share one aged drive. Each drive of an array keeps its own state. The
//! log-block mappings (`ftl.mapping = "lftl"` or `"hftl"`) have no snapshot: their runs age each
//! on their own, and `--save-state` says so.
//!
//! # File format (version 1)
//!
//! All integers little-endian. The magic line `ssdgc aged state\n`, the format version (`u32`),
//! the key as text (`u32` length, at most 64 KiB, then `name=value` lines), the number of drives
//! (`u32`), then per drive one FTL snapshot: a kind byte (0: page-mapped), the L2P table, erase
//! counts, block clocks and block states (each a `u32` count then the values: `u32`, `u32`, `u64`,
//! `u8`), per plane the free pool, the write points and the victim candidates, the FTL clock, the
//! HC values and the HC clock; last, an FNV-1a 64-bit checksum of every byte before it.
//!
//! Reading is bounded: the key is read and compared first, and every count must equal (or, for a
//! plane's lists, stay within) what the run's own geometry says before anything is allocated, so
//! a file never makes ssdgc allocate more than the drive it is loaded into. A file that is not an
//! aged state, of another format version, aged with other inputs (the first differing input is
//! named), truncated, altered (checksum) or inconsistent (the FTL's own checks) is a one-line
//! error.

use std::io::{Read, Write};

use crate::config::Config;
use crate::ftl::page::{PageSnapshot, PlaneSnapshot};
use crate::ftl::streams::STREAMS;
use crate::ftl::FtlSnapshot;

use super::Precondition;

/// Version of the ageing algorithm: changed whenever the same inputs would age a drive
/// differently, so that a saved state from before no longer matches. Version 2: the planes of a
/// page-mapped drive are aged apart, each drawing its overwrites from a stream of its own.
pub const AGEING_VERSION: u32 = 2;

/// Version of the aged-state file format.
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: &[u8] = b"ssdgc aged state\n";
const MAX_KEY_BYTES: u32 = 64 * 1024;

/// The inputs that decide the result of ageing: two runs with equal keys age their drives to the
/// same state (module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AgeingKey {
    entries: Vec<(String, String)>,
}

impl AgeingKey {
    /// The key of a run of `cfg` (the configuration of one drive as its GC scheme sees it,
    /// [`crate::gc::scheme::drive_for`]) preconditioned as `how` with `seed`; `workload` is the
    /// run's [`crate::host::Workload::identity`], an input only of `trace` preconditioning.
    pub fn new(
        cfg: &Config,
        how: Precondition,
        seed: u64,
        workload: &str,
    ) -> Result<AgeingKey, String> {
        let ftl = cfg.ftl_params()?;
        let geo = cfg.geometry_params();
        let precondition = match how {
            Precondition::None => "none".to_string(),
            Precondition::Fill => "fill".to_string(),
            Precondition::Steady(n) => format!("steady:{n}"),
            Precondition::Trace(n) => format!("trace:{n}"),
        };
        let trigger = match ftl.trigger.pages {
            None => format!("{} blocks", ftl.trigger.blocks),
            Some(p) => format!("{p} pages or {} blocks", ftl.trigger.blocks),
        };
        let entries = [
            ("ageing", AGEING_VERSION.to_string()),
            ("precondition", precondition),
            ("seed", seed.to_string()),
            ("drives", cfg.array.drives.to_string()),
            (
                "geometry",
                format!(
                    "{}ch x {}chips x {}dies x {}planes x {}blocks x {}pages x {}B, overprovision {}",
                    geo.channels,
                    geo.chips_per_channel,
                    geo.dies_per_chip,
                    geo.planes_per_die,
                    geo.blocks_per_plane,
                    geo.pages_per_block,
                    geo.page_size,
                    geo.overprovision
                ),
            ),
            ("allocation", ftl.allocation.to_string()),
            ("trigger", trigger),
            ("pool", ftl.pool.to_string()),
            ("streams", format!("{:?}", ftl.streams)),
            ("hot_cold", ftl.hot_cold.to_string()),
            ("victim", ftl.candidates.name()),
            ("ftl", format!("{ftl:?} {geo:?}")),
        ];
        let mut entries: Vec<(String, String)> = entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        if let Precondition::Trace(_) = how {
            // The workload's own pages, laid out over the array.
            entries.push(("workload".into(), workload.to_string()));
            entries.push(("array".into(), format!("{:?}", cfg.array)));
        }
        Ok(AgeingKey { entries })
    }

    /// The inputs as `name=value` lines.
    pub fn text(&self) -> String {
        self.entries
            .iter()
            .map(|(k, v)| format!("{k}={v}\n"))
            .collect()
    }

    /// Parses [`AgeingKey::text`].
    fn parse(text: &str) -> Result<AgeingKey, String> {
        let entries = text
            .lines()
            .map(|l| {
                l.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| "its list of ageing inputs is damaged".to_string())
            })
            .collect::<Result<_, _>>()?;
        Ok(AgeingKey { entries })
    }

    /// Why a drive aged with inputs `self` cannot stand for one aged with `want`: the first input
    /// that differs, both values named; `None` when they are equal.
    pub fn mismatch(&self, want: &AgeingKey) -> Option<String> {
        if self == want {
            return None;
        }
        for (name, value) in &want.entries {
            let have = self.entries.iter().find(|(k, _)| k == name).map(|(_, v)| v);
            match have {
                Some(v) if v == value => continue,
                Some(v) => {
                    return Some(format!(
                        "it was aged with {name} = {v}, this run ages with {name} = {value}"
                    ))
                }
                None => return Some(format!("it does not record the ageing input {name}")),
            }
        }
        Some("it records ageing inputs this version of ssdgc does not know".into())
    }
}

/// An aged drive: the key it was aged under and the FTL state of each drive of the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgedState {
    pub key: AgeingKey,
    pub drives: Vec<FtlSnapshot>,
}

/// A 64-bit FNV-1a hash of everything written or read.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Writes through a hash.
struct Out<W: Write> {
    w: W,
    hash: Fnv,
}

impl<W: Write> Out<W> {
    fn bytes(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.hash.update(b);
        self.w.write_all(b)
    }
    fn u8(&mut self, v: u8) -> std::io::Result<()> {
        self.bytes(&[v])
    }
    fn u32(&mut self, v: u32) -> std::io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }
    fn u64(&mut self, v: u64) -> std::io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }
    fn len(&mut self, n: usize) -> std::io::Result<()> {
        let n = u32::try_from(n).map_err(|_| std::io::Error::other("a table is too long"))?;
        self.u32(n)
    }
    /// A table: its length, then each value's little-endian bytes, written in chunks.
    fn table<T: Copy, const N: usize>(
        &mut self,
        v: &[T],
        le: impl Fn(T) -> [u8; N],
    ) -> std::io::Result<()> {
        self.len(v.len())?;
        let mut buf = Vec::with_capacity(N * v.len().min(1 << 16));
        for chunk in v.chunks(1 << 16) {
            buf.clear();
            for &x in chunk {
                buf.extend_from_slice(&le(x));
            }
            self.bytes(&buf)?;
        }
        Ok(())
    }
    fn u32s(&mut self, v: &[u32]) -> std::io::Result<()> {
        self.table(v, u32::to_le_bytes)
    }
    fn u64s(&mut self, v: &[u64]) -> std::io::Result<()> {
        self.table(v, u64::to_le_bytes)
    }
}

impl AgedState {
    /// Writes the state in the file format (module documentation) to `w` (buffer it).
    pub fn write_to(&self, w: impl Write) -> std::io::Result<()> {
        let mut o = Out {
            w,
            hash: Fnv::new(),
        };
        o.bytes(MAGIC)?;
        o.u32(FORMAT_VERSION)?;
        let key = self.key.text();
        o.len(key.len())?;
        o.bytes(key.as_bytes())?;
        o.len(self.drives.len())?;
        for d in &self.drives {
            let FtlSnapshot::Page(s) = d;
            o.u8(0)?;
            o.u32s(&s.l2p)?;
            o.u32s(&s.erase_count)?;
            o.u64s(&s.last_modified)?;
            o.len(s.state.len())?;
            o.bytes(&s.state)?;
            o.len(s.planes.len())?;
            for p in &s.planes {
                o.u32s(&p.free)?;
                for &(b, n) in &p.write_points {
                    o.u32(b)?;
                    o.u32(n)?;
                }
                o.u32s(&p.candidates)?;
            }
            o.u64(s.clock)?;
            o.u64s(&s.hc)?;
            o.u64(s.hc_clock)?;
        }
        let sum = o.hash.0;
        o.w.write_all(&sum.to_le_bytes())?;
        o.w.flush()
    }

    /// Reads a state written by [`AgedState::write_to`] for a run whose ageing key is `want` and
    /// whose drive (as its scheme sees it) is `cfg`, checking it on the way (module
    /// documentation). The error is one line.
    pub fn read_from(r: impl Read, want: &AgeingKey, cfg: &Config) -> Result<AgedState, String> {
        let mut i = In {
            r,
            hash: Fnv::new(),
        };
        let mut magic = [0u8; MAGIC.len()];
        i.exact(&mut magic)
            .map_err(|_| "not an ssdgc aged-state file".to_string())?;
        if magic != MAGIC {
            return Err("not an ssdgc aged-state file".into());
        }
        let version = i.u32()?;
        if version != FORMAT_VERSION {
            return Err(format!(
                "aged-state format version {version}; this ssdgc reads version {FORMAT_VERSION}"
            ));
        }
        let n = i.u32()?;
        if n > MAX_KEY_BYTES {
            return Err("not an ssdgc aged-state file (its list of inputs is too long)".into());
        }
        let mut key = vec![0u8; n as usize];
        i.exact(&mut key)?;
        let key = String::from_utf8(key).map_err(|_| "its list of ageing inputs is damaged")?;
        let key = AgeingKey::parse(&key)?;
        if let Some(why) = key.mismatch(want) {
            return Err(format!("{why} (every ageing input must match)"));
        }
        // The key matched: the geometry is this run's, and bounds every table.
        let geo = crate::flash::Geometry::new(cfg);
        let blocks = geo.blocks();
        let ndrives = i.u32()?;
        if ndrives != cfg.array.drives {
            return Err(format!(
                "it holds {ndrives} drives, the run has {}",
                cfg.array.drives
            ));
        }
        let hc = if cfg.ftl.hot_cold {
            geo.logical_pages
        } else {
            0
        };
        let mut drives = Vec::with_capacity(ndrives as usize);
        for _ in 0..ndrives {
            let kind = i.u8()?;
            if kind != 0 {
                return Err(format!("unknown FTL kind {kind}"));
            }
            let l2p = i.u32s(geo.logical_pages, geo.logical_pages, "mapping")?;
            let erase_count = i.u32s(blocks, blocks, "erase counts")?;
            let last_modified = i.u64s(blocks, blocks, "block clocks")?;
            let ns = i.count(blocks, blocks, "block states")?;
            let mut state = vec![0u8; ns];
            i.exact(&mut state)?;
            let np = i.count(geo.planes, geo.planes, "planes")?;
            let mut planes = Vec::with_capacity(np);
            for _ in 0..np {
                let free = i.u32s(0, geo.blocks_per_plane, "free pool")?;
                let mut write_points = [(0, 0); STREAMS];
                for w in &mut write_points {
                    *w = (i.u32()?, i.u32()?);
                }
                let candidates = i.u32s(0, geo.blocks_per_plane, "victim candidates")?;
                planes.push(PlaneSnapshot {
                    free,
                    write_points,
                    candidates,
                });
            }
            let clock = i.u64()?;
            let hc_values = i.u64s(hc, hc, "HC values")?;
            let hc_clock = i.u64()?;
            drives.push(FtlSnapshot::Page(PageSnapshot {
                l2p,
                erase_count,
                last_modified,
                state,
                planes,
                clock,
                hc: hc_values,
                hc_clock,
            }));
        }
        let sum = i.hash.0;
        let mut stored = [0u8; 8];
        i.r.read_exact(&mut stored).map_err(truncated)?;
        if u64::from_le_bytes(stored) != sum {
            return Err("corrupt: its checksum does not match its contents".into());
        }
        let mut extra = [0u8; 1];
        match i.r.read(&mut extra) {
            Ok(0) => {}
            Ok(_) => return Err("corrupt: data after its end".into()),
            Err(e) => return Err(format!("cannot read: {e}")),
        }
        Ok(AgedState { key, drives })
    }
}

fn truncated(e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        "truncated".to_string()
    } else {
        format!("cannot read: {e}")
    }
}

/// Reads through a hash, every count checked before anything is allocated.
struct In<R: Read> {
    r: R,
    hash: Fnv,
}

impl<R: Read> In<R> {
    fn exact(&mut self, buf: &mut [u8]) -> Result<(), String> {
        self.r.read_exact(buf).map_err(truncated)?;
        self.hash.update(buf);
        Ok(())
    }
    fn u8(&mut self) -> Result<u8, String> {
        let mut b = [0u8; 1];
        self.exact(&mut b)?;
        Ok(b[0])
    }
    fn u32(&mut self) -> Result<u32, String> {
        let mut b = [0u8; 4];
        self.exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn u64(&mut self) -> Result<u64, String> {
        let mut b = [0u8; 8];
        self.exact(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    /// A count in `lo..=hi`.
    fn count(&mut self, lo: u32, hi: u32, what: &str) -> Result<usize, String> {
        let n = self.u32()?;
        if n < lo || n > hi {
            return Err(if lo == hi {
                format!("its {what} has {n} entries, the drive {lo}")
            } else {
                format!("its {what} has {n} entries, the drive at most {hi}")
            });
        }
        Ok(n as usize)
    }
    fn u32s(&mut self, lo: u32, hi: u32, what: &str) -> Result<Vec<u32>, String> {
        let n = self.count(lo, hi, what)?;
        let mut v = Vec::with_capacity(n);
        let mut buf = vec![0u8; 4 * n.min(1 << 16)];
        while v.len() < n {
            let k = (n - v.len()).min(1 << 16);
            self.exact(&mut buf[..4 * k])?;
            v.extend(
                buf[..4 * k]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
        }
        Ok(v)
    }
    fn u64s(&mut self, lo: u32, hi: u32, what: &str) -> Result<Vec<u64>, String> {
        let n = self.count(lo, hi, what)?;
        let mut v = Vec::with_capacity(n);
        let mut buf = vec![0u8; 8 * n.min(1 << 16)];
        while v.len() < n {
            let k = (n - v.len()).min(1 << 16);
            self.exact(&mut buf[..8 * k])?;
            v.extend(
                buf[..8 * k]
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])),
            );
        }
        Ok(v)
    }
}
