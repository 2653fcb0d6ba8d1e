//! The host front end: requests arrive (open or closed loop), wait for a slot in the device queue
//! (`host.queue_depth`), go through the write buffer, are striped over the drives of the array
//! ([`Stripe`]) and split into page transactions, and complete when all their pages on all drives
//! have; response times and their breakdown are recorded here.
//!
//! The part of a request that lies on one drive is a *piece*. A drive counts the pieces it has
//! outstanding (from the request's admission until the piece's last page is done), and sees the
//! device idle when it has none: with one drive that is exactly "no request in the device queue".
//! With several drives the front end also records each piece's response time (its last page's
//! completion − the request's arrival) and breakdown per drive.

use std::collections::VecDeque;

use super::array::{Disks, Stripe};
use super::buffer::WriteBuffer;
use super::lookahead::{READ_AHEAD, READ_AHEAD_MIN_PAGES};
use super::{ReplayMode, Workload};
use crate::config::{Config, MAX_DRIVES};
use crate::drive::{Drive, PageDone};
use crate::engine::{ErrorFlag, ErrorSlot, Event, EventQueue};
use crate::gc::scheme::Command;
use crate::gc::when::agc::MAX_PREVIEW_PAGES;
use crate::metrics::breakdown::Breakdown;
use crate::metrics::request_log::{RequestRecord, RequestSink};
use crate::metrics::{Responses, Series};
use crate::sim::SimError;
use crate::units::{Lpn, SimTime};
use ssdgc_workload::{IoRecord, Op};

mod admission;
mod completion;

/// The tag of a transaction that flushes a write-buffer page (no host request waits on it).
const FLUSH: u32 = u32::MAX;

/// No request id (an empty [`FrontEnd::free_top`]; ids stay below [`FLUSH`]).
const NO_ID: u32 = u32::MAX;

/// What the front end works on during one event: the drives, the event queue and the time.
pub(crate) struct Io<'a> {
    pub drives: &'a mut [Drive],
    pub events: &'a mut EventQueue,
    pub now: SimTime,
}

#[derive(Clone, Copy, Debug)]
struct Req {
    arrival: SimTime,
    /// When it entered the device queue.
    admitted: SimTime,
    /// Position in arrival order.
    index: u64,
    /// First page, before folding into the span: page `i` of the request is array page
    /// `base + (first + i) mod span`.
    first: u64,
    /// The region the request's addresses fold into: the array's whole logical space, or its
    /// disk's region with per-disk traces.
    base: u64,
    span: u64,
    /// Pages touched; transactions still to complete once admitted.
    pending: u32,
    write: bool,
    /// A write whose first (last) page it covers only in part.
    head_partial: bool,
    tail_partial: bool,
    /// The drives it has a piece on (bit `d` = drive `d`), once admitted by
    /// `admit_pieces` (read by the write buffer's acknowledgement; not kept on the direct path).
    drives: u64,
}

/// What the per-request log and the series need of a request beyond its [`Req`]: kept only when
/// they are ([`FrontEnd::extras`]).
#[derive(Clone, Copy, Debug, Default)]
struct ReqExtras {
    /// Position among the write requests (for the write series).
    write_index: u64,
    /// Its first byte and length, as the workload gave them.
    offset: u64,
    bytes: u64,
}

/// Counters of the requests at the front end.
#[derive(Clone, Debug, Default)]
pub(crate) struct HostStats {
    pub requests: Responses,
    pub requests_seen: u64,
    /// Requests that found the device queue full and waited on the host for a slot.
    pub queued_on_host: u64,
    pub by_time: Option<Series>,
    pub by_request: Option<Series>,
    /// Response time over the sequence of write requests (with `schemes.critical_path`).
    pub by_write: Option<Series>,
    /// Write requests seen.
    pub writes_seen: u64,
}

/// What one drive of an array did for the front end: the pieces of requests it served, and the
/// write buffer's work for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PieceStats {
    pub pieces: Responses,
    /// Pieces of writes the buffer acknowledged.
    pub writes_absorbed: u64,
    /// Pieces of writes that bypassed the buffer.
    pub writes_bypassed: u64,
    /// Read pages of this drive served from the buffer.
    pub hits_read: u64,
    /// Buffered pages written to this drive.
    pub pages_flushed: u64,
}

/// The host front end of one run.
pub(crate) struct FrontEnd {
    queue_depth: u32,
    /// The drives read the rest of partly written pages (`ftl.rmw`): writes tell them which
    /// pages they cover only in part.
    rmw: bool,
    /// The drives issue host multi-plane commands (`ftl.multiplane`): a request's pages are all
    /// queued before their dies start (`Drive::end_batch`).
    batch: bool,
    fold_reject: bool,
    time_scale: f64,
    stripe: Stripe,
    /// The array's logical pages (`stripe.logical_pages()`, read per request).
    logical: u64,
    /// log2 of the page size when it is a power of two (a shift then divides by it).
    page_shift: Option<u32>,
    /// `page_shift`'s value, 0 when there is none (read only by the plain run, whose page size is
    /// a power of two).
    shift: u32,
    drives: usize,
    /// One drive, no write buffer, no per-disk traces: requests are admitted by
    /// [`FrontEnd::admit_direct`].
    direct: bool,
    /// The workload is read ahead and the drive asked for the records' mapping entries before
    /// they are served ([`FrontEnd::prefetch_ahead`]): the direct path on a page-mapped drive.
    read_ahead: bool,
    reqs: Vec<Req>,
    /// The ids of `reqs` free for new requests, used last in first out: the top of the stack
    /// (the id freed last) held apart, the rest in `free_reqs` (in the closed loop a completion
    /// frees the id that the request it issues takes at once; [`NO_ID`] when there is none).
    free_top: u32,
    free_reqs: Vec<u32>,
    /// Per request id, what the log and the series need (empty unless [`FrontEnd::extras`]).
    req_extras: Vec<ReqExtras>,
    /// Pages still to complete per request and drive: `pending[id × drives + d]` (on the direct
    /// path the request is its one piece: `Req::pending`, this not kept).
    pending: Vec<u32>,
    waiting: VecDeque<u32>,
    in_device: u32,
    outstanding: u64,
    pub workload: Workload,
    /// The next open-loop record, and its disk with per-disk traces.
    next_arrival: Option<(IoRecord, Option<u64>)>,
    /// Per-disk traces: each disk's region of the array (`array.disks`).
    disks: Option<Disks>,
    /// Some drive's scheme reads the next command's pre-information.
    look_ahead: bool,
    /// The drives the next command was announced to (bit `d` = drive `d`).
    announced: u64,
    first_time: Option<u64>,
    exhausted: bool,
    /// Closed loop in bursts: requests per burst and the idle time between bursts (scaled), and
    /// requests issued in the current burst.
    burst: Option<(u64, SimTime)>,
    in_burst: u64,
    error: ErrorSlot<SimError>,
    pub stats: HostStats,
    /// Per drive, when there are several.
    pub per_drive: Vec<PieceStats>,
    /// The host write buffer (empty and unused when `buffer.size` is 0).
    pub buffer: WriteBuffer,
    buffer_latency: SimTime,
    /// Scratch of `admit`: pages of the request being admitted answered at once, per drive.
    at_once: Vec<u32>,
    /// Scratch of `admit`: the first page of the request being admitted on each drive.
    piece_first: Vec<Lpn>,
    /// The per-request log's sink, when one is set.
    pub request_sink: Option<Box<dyn RequestSink>>,
    /// A completed request goes to the per-request log or a series (decided when the run starts,
    /// [`FrontEnd::start`]; otherwise its latency record is all).
    extras: bool,
    /// The plain run (decided when it starts, [`FrontEnd::start`]): closed loop without bursts,
    /// admitted by [`FrontEnd::admit_direct`], no per-request log or series, a page size that is a
    /// power of two. Its completions take [`FrontEnd::page_done`] with `PLAIN`, where these are
    /// known when compiled rather than tested per request.
    plain: bool,
}

impl FrontEnd {
    /// The front end of `cfg` (the configuration of one drive of the array) over `stripe`; an
    /// error it runs into raises `errors`.
    pub(crate) fn new(
        cfg: &Config,
        stripe: Stripe,
        workload: Workload,
        series_interval: Option<SimTime>,
        series_window: Option<u64>,
        errors: &ErrorFlag,
    ) -> FrontEnd {
        let drives = stripe.drives() as usize;
        let page_shift = Some(stripe.page_size())
            .filter(|ps| ps.is_power_of_two())
            .map(u64::trailing_zeros);
        debug_assert!(drives <= MAX_DRIVES as usize);
        let bound = cfg.host.excess_bound.0;
        let by_write = series_window.filter(|_| crate::metrics::critical_path_on(cfg));
        let disks = (!cfg.array.disks.is_empty()).then(|| {
            Disks::new(
                &cfg.array.disks,
                stripe.logical_pages() / stripe.drives() as u64,
            )
        });
        // The idle time between bursts is host time, scaled like arrival times.
        let burst = workload.bursts.map(|(n, idle)| {
            let t = if cfg.host.time_scale == 1.0 {
                idle
            } else {
                (idle as f64 * cfg.host.time_scale).round() as SimTime
            };
            (n, t)
        });
        let buffer = WriteBuffer::new(cfg.buffer.size.0 / cfg.geometry.page_size.0);
        let direct = drives == 1 && !buffer.enabled() && disks.is_none();
        let mut workload = workload;
        // Records read ahead, for the cache hints of a large page-mapped drive (`lookahead`).
        let read_ahead = direct
            && cfg.ftl.mapping == crate::ftl::MappingKind::Page
            && stripe.logical_pages() >= READ_AHEAD_MIN_PAGES;
        if read_ahead {
            workload.read_ahead(READ_AHEAD);
        }
        FrontEnd {
            read_ahead,
            queue_depth: cfg.host.queue_depth,
            rmw: cfg.ftl.rmw,
            batch: cfg.ftl.multiplane != crate::config::HostMultiplane::Off,
            fold_reject: cfg.host.fold == crate::config::Fold::Reject,
            time_scale: cfg.host.time_scale,
            page_shift,
            shift: page_shift.unwrap_or(0),
            drives,
            direct,
            reqs: Vec::new(),
            free_top: NO_ID,
            req_extras: Vec::new(),
            free_reqs: Vec::new(),
            pending: Vec::new(),
            waiting: VecDeque::new(),
            in_device: 0,
            outstanding: 0,
            workload,
            next_arrival: None,
            disks,
            look_ahead: false,
            announced: 0,
            first_time: None,
            exhausted: false,
            burst,
            in_burst: 0,
            error: ErrorSlot::new(errors),
            stats: HostStats {
                requests: Responses::with_bound(bound),
                by_time: series_interval.map(Series::new),
                by_request: series_window.map(Series::new),
                by_write: by_write.map(Series::new),
                ..HostStats::default()
            },
            per_drive: if drives > 1 {
                vec![
                    PieceStats {
                        pieces: Responses::with_bound(bound),
                        ..PieceStats::default()
                    };
                    drives
                ]
            } else {
                Vec::new()
            },
            buffer,
            buffer_latency: cfg.buffer.latency.0,
            at_once: vec![0; drives],
            piece_first: vec![0; drives],
            request_sink: None,
            extras: false,
            plain: false,
            logical: stripe.logical_pages(),
            stripe,
        }
    }

    /// Requests submitted and not yet completed.
    pub(crate) fn outstanding(&self) -> u64 {
        self.outstanding
    }

    /// Requests completed.
    pub(crate) fn completed(&self) -> u64 {
        self.stats.requests.all().count()
    }

    /// The first error met, if any (taking it).
    #[inline]
    pub(crate) fn take_error(&mut self) -> Option<SimError> {
        self.error.take()
    }

    /// The layout of the array.
    pub(crate) fn stripe(&self) -> &Stripe {
        &self.stripe
    }

    /// Offers the first requests: the first arrival (open loop) or `QD` requests (closed loop).
    pub(crate) fn start(&mut self, io: &mut Io) -> Result<(), SimError> {
        let s = &self.stats;
        self.extras = self.request_sink.is_some()
            || s.by_write.is_some()
            || s.by_time.is_some()
            || s.by_request.is_some();
        self.look_ahead = io.drives.iter().any(Drive::looks_ahead);
        self.plain = self.direct
            && !self.extras
            && self.burst.is_none()
            && matches!(self.workload.mode, ReplayMode::ClosedLoop(_))
            && self.page_shift.is_some();
        match self.workload.mode {
            ReplayMode::OpenLoop => self.schedule_next_arrival(io),
            ReplayMode::ClosedLoop(qd) => {
                for _ in 0..qd {
                    if !self.issue_closed_loop::<false>(io)? {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// The event queue ran dry: queues what is left in the write buffer, if anything. True when
    /// that scheduled more work.
    pub(crate) fn drain(&mut self, io: &mut Io) -> bool {
        if !self.buffer.has_dirty() {
            return false;
        }
        self.flush_buffer(io);
        !io.events.is_empty()
    }

    /// Checks the write buffer's occupancy.
    pub(crate) fn check(&self, now: SimTime) -> Result<(), SimError> {
        if self.buffer.len() as u64 > self.buffer.capacity() {
            return Err(SimError::Invariant {
                time_ns: now,
                msg: format!(
                    "the write buffer holds {} pages, over its {}",
                    self.buffer.len(),
                    self.buffer.capacity()
                ),
            });
        }
        Ok(())
    }

    #[inline]
    fn next_record(&mut self) -> Result<Option<IoRecord>, SimError> {
        if self.exhausted {
            return Ok(None);
        }
        match self.workload.next_record() {
            Some(Ok(r)) => {
                self.stats.requests_seen += 1;
                Ok(Some(r))
            }
            Some(Err(e)) => Err(e.into()),
            None => {
                self.exhausted = true;
                Ok(None)
            }
        }
    }

    fn schedule_next_arrival(&mut self, io: &mut Io) -> Result<(), SimError> {
        if let Some(rec) = self.next_record()? {
            let first = *self.first_time.get_or_insert(rec.time_ns);
            let rel = rec.time_ns.saturating_sub(first);
            let t = if self.time_scale == 1.0 {
                rel
            } else {
                (rel as f64 * self.time_scale).round() as SimTime
            };
            let disk = self.last_disk::<false>();
            self.next_arrival = Some((rec, disk));
            let at = t.max(io.now);
            io.events.schedule(at, Event::Arrival);
            if self.look_ahead {
                self.announce(io, &rec, disk, at);
            }
            self.prefetch_ahead::<false>(io);
        }
        Ok(())
    }

    /// Tells the drives that look ahead about the next command (its pre-information, AGC/DGC
    /// paper §4.1): its part on each drive — the first page there and the pages among the first
    /// [`MAX_PREVIEW_PAGES`] of the request — arriving at `at`.
    #[inline(never)]
    fn announce(&mut self, io: &mut Io, rec: &IoRecord, disk: Option<u64>, at: SimTime) {
        let Ok((first, n, base, span)) = self.pages_of::<false>(rec, disk) else {
            return;
        };
        let mut cmds: Vec<Option<Command>> = vec![None; self.drives];
        for i in 0..n.min(MAX_PREVIEW_PAGES as u64) {
            let (d, lpn) = self.stripe.page(base + (first + i) % span);
            match &mut cmds[d] {
                Some(c) => c.pages += 1,
                None => {
                    cmds[d] = Some(Command {
                        write: rec.op == Op::Write,
                        first: lpn,
                        pages: 1,
                        arrival: at,
                        // `requests_seen` already counts it.
                        seq: self.stats.requests_seen - 1,
                    })
                }
            }
        }
        let mut mask = 0;
        for (d, c) in cmds.into_iter().enumerate() {
            if io.drives[d].looks_ahead() && (c.is_some() || self.announced & (1 << d) != 0) {
                if c.is_some() {
                    mask |= 1 << d;
                }
                io.drives[d].announce(io.events, io.now, c);
            }
        }
        self.announced = mask;
    }

    /// The pending open-loop request arrives, or (closed loop in bursts) the next burst starts.
    pub(crate) fn on_arrival(&mut self, io: &mut Io) -> Result<(), SimError> {
        let (rec, disk) = self
            .next_arrival
            .take()
            .expect("an arrival event always has its record");
        for d in drives_of(std::mem::take(&mut self.announced)) {
            // It is no longer a preview: it is here.
            io.drives[d].announce(io.events, io.now, None);
        }
        if let ReplayMode::ClosedLoop(qd) = self.workload.mode {
            self.in_burst = 1;
            self.submit::<false>(io, rec, disk)?;
            for _ in 1..qd {
                if !self.issue_closed_loop::<false>(io)? {
                    break;
                }
            }
            return Ok(());
        }
        self.submit::<false>(io, rec, disk)?;
        self.schedule_next_arrival(io)
    }

    /// Issues the next closed-loop request, unless the workload is done or (in bursts) the current
    /// burst has issued all its requests. False when nothing was issued. (`PLAIN`: in the plain
    /// run, [`FrontEnd::plain`].)
    #[inline(always)]
    fn issue_closed_loop<const PLAIN: bool>(&mut self, io: &mut Io) -> Result<bool, SimError> {
        if let Some((n, _)) = self.burst.filter(|_| !PLAIN) {
            if self.in_burst == n {
                return Ok(false);
            }
        }
        match self.next_record()? {
            Some(rec) => {
                // (Counted only for bursts, which the plain run has none of.)
                if !PLAIN {
                    self.in_burst += 1;
                }
                let disk = self.last_disk::<PLAIN>();
                self.submit::<PLAIN>(io, rec, disk)?;
                self.prefetch_ahead::<PLAIN>(io);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The disk of the record taken last, with per-disk traces (the only ones whose records'
    /// disks are read: without, the source is not asked).
    #[inline(always)]
    fn last_disk<const PLAIN: bool>(&self) -> Option<u64> {
        if !PLAIN && self.disks.is_some() {
            self.workload.last_disk()
        } else {
            None
        }
    }

    /// Closed loop in bursts: the burst is issued and its last request has completed; the next
    /// burst starts after the idle time (an `Arrival` event holding its first request).
    #[cold]
    fn end_burst(&mut self, io: &mut Io, idle: SimTime) -> Result<(), SimError> {
        if let Some(rec) = self.next_record()? {
            self.next_arrival = Some((rec, self.last_disk::<false>()));
            io.events.schedule(io.now + idle, Event::Arrival);
        }
        Ok(())
    }

    /// Page range of a record (of disk `disk`, with per-disk traces): its first page (before
    /// folding), its page count, and the region it folds into (first array page, pages) — the
    /// array's logical space, or the disk's region; beyond it, folded or rejected as configured.
    #[inline(always)]
    fn pages_of<const PLAIN: bool>(
        &self,
        rec: &IoRecord,
        disk: Option<u64>,
    ) -> Result<(u64, u64, u64, u64), SimError> {
        let first = self.page_of::<PLAIN>(rec.offset);
        let last = self.page_of::<PLAIN>(rec.offset + rec.len.max(1) - 1);
        let (base, span) = match &self.disks {
            Some(m) if !PLAIN => self.region(m, disk)?,
            _ => (0, self.logical),
        };
        if last >= span && self.fold_reject {
            return Err(self.beyond(rec.offset, rec.len, disk, span));
        }
        Ok((first, last - first + 1, base, span))
    }

    /// The region of disk `disk` (per-disk traces), or the error naming the record.
    #[cold]
    #[inline(never)]
    fn region(&self, m: &Disks, disk: Option<u64>) -> Result<(u64, u64), SimError> {
        match disk {
            Some(k) => m
                .region(k)
                .ok_or_else(|| self.address_error(format!("disk {k} is not in array.disks"))),
            None => Err(self.address_error(
                "array.disks maps disks to drives, but the record has no disk".into(),
            )),
        }
    }

    /// The error of a record (bytes `offset..offset + len`) reaching beyond its space under
    /// `host.fold = "reject"`. (Given the record's fields, not the record: the record stays in
    /// registers.)
    #[cold]
    #[inline(never)]
    fn beyond(&self, offset: u64, len: u64, disk: Option<u64>, span: u64) -> SimError {
        let what = match disk {
            Some(k) if self.disks.is_some() => format!("region of disk {k}"),
            _ if self.drives > 1 => "array's logical space".to_string(),
            _ => "drive's logical space".to_string(),
        };
        self.address_error(format!(
            "bytes {}..{} lie beyond the {what} of {} bytes (set host.fold=wrap to fold addresses)",
            offset,
            offset + len,
            span * self.stripe.page_size()
        ))
    }

    /// An address error naming the record being submitted.
    fn address_error(&self, msg: String) -> SimError {
        SimError::Address {
            source_name: self.workload.name.clone(),
            // 1-based: `requests_seen` already counts this request.
            index: self.stats.requests_seen,
            msg,
        }
    }

    /// A request arrives at the front end: admitted to the device queue, or waiting for a slot.
    /// (Inlined into its callers: the record and the result are not moved through memory.)
    #[inline(always)]
    fn submit<const PLAIN: bool>(
        &mut self,
        io: &mut Io,
        rec: IoRecord,
        disk: Option<u64>,
    ) -> Result<(), SimError> {
        let req = self.new_req::<PLAIN>(io.now, &rec, disk)?;
        let write_index = self.stats.writes_seen;
        self.stats.writes_seen += u64::from(req.write);
        let top = std::mem::replace(&mut self.free_top, NO_ID);
        let id = match Some(top)
            .filter(|&t| t != NO_ID)
            .or_else(|| self.free_reqs.pop())
        {
            Some(i) => {
                self.reqs[i as usize] = req;
                i
            }
            None => {
                self.reqs.push(req);
                self.pending.resize(self.reqs.len() * self.drives, 0);
                self.reqs.len() as u32 - 1
            }
        };
        if !PLAIN && self.extras {
            self.keep_extras(
                id,
                ReqExtras {
                    write_index,
                    offset: rec.offset,
                    bytes: rec.len,
                },
            );
        }
        self.outstanding += 1;
        if self.in_device < self.queue_depth && self.waiting.is_empty() {
            self.admit::<PLAIN>(io, id);
        } else {
            self.stats.queued_on_host += 1;
            self.waiting.push_back(id);
        }
        Ok(())
    }

    /// The request of record `rec` (of disk `disk`, with per-disk traces) arriving at `now`, or the
    /// error of its addresses.
    #[inline(always)]
    fn new_req<const PLAIN: bool>(
        &self,
        now: SimTime,
        rec: &IoRecord,
        disk: Option<u64>,
    ) -> Result<Req, SimError> {
        let (first, npages, base, span) = self.pages_of::<PLAIN>(rec, disk)?;
        let write = rec.op == Op::Write;
        let (head_partial, tail_partial) = if write && self.rmw {
            let ps = self.stripe.page_size();
            let end = rec.offset + rec.len.max(1);
            (
                !rec.offset.is_multiple_of(ps) || (npages == 1 && !end.is_multiple_of(ps)),
                !end.is_multiple_of(ps),
            )
        } else {
            (false, false)
        };
        Ok(Req {
            arrival: now,
            admitted: now,
            // `requests_seen` already counts this request.
            index: self.stats.requests_seen - 1,
            first,
            base,
            span,
            pending: npages as u32,
            write,
            head_partial,
            tail_partial,
            drives: 0,
        })
    }

    /// Keeps what the log and the series need of request `id`.
    #[inline(never)]
    fn keep_extras(&mut self, id: u32, e: ReqExtras) {
        let i = id as usize;
        if self.req_extras.len() <= i {
            self.req_extras.resize(i + 1, ReqExtras::default());
        }
        self.req_extras[i] = e;
    }

    /// Reads the workload ahead and gives the drive its cache hints whatever the drive's size
    /// (on the direct path of a page-mapped drive; tests: no result may depend on it).
    /// True when it does (the direct path).
    #[cfg(test)]
    pub(crate) fn force_read_ahead(&mut self) -> bool {
        if self.direct {
            self.read_ahead = true;
            self.workload.read_ahead(READ_AHEAD);
        }
        self.read_ahead
    }

    /// Asks the drive for the mapping entries of the records read ahead ([`super::lookahead`]):
    /// the L2P entry of the newest (the first page of each record), and for a write half a window
    /// nearer the entries of the page it will supersede. Changes nothing. (`PLAIN`: in the plain
    /// run, [`FrontEnd::plain`].)
    #[inline(always)]
    fn prefetch_ahead<const PLAIN: bool>(&self, io: &Io) {
        if !self.read_ahead {
            return;
        }
        let logical = self.logical;
        let lpn = |r: &IoRecord| {
            let p = self.page_of::<PLAIN>(r.offset);
            (if p < logical { p } else { p % logical }) as Lpn
        };
        let drive = &io.drives[0];
        if let Some(r) = self.workload.peek(READ_AHEAD - 1) {
            drive.prefetch_lpn(lpn(r));
        }
        if let Some(r) = self.workload.peek(READ_AHEAD / 2 - 1) {
            if r.op == Op::Write {
                drive.prefetch_overwrite(lpn(r));
            }
        }
    }

    /// The page holding byte `offset`.
    #[inline(always)]
    fn page_of<const PLAIN: bool>(&self, offset: u64) -> u64 {
        if PLAIN {
            return offset >> self.shift;
        }
        match self.page_shift {
            Some(s) => offset >> s,
            None => offset / self.stripe.page_size(),
        }
    }
}

/// The drives in bit mask `mask`, in order.
fn drives_of(mask: u64) -> impl Iterator<Item = usize> + Clone {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let d = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(d)
    })
}
