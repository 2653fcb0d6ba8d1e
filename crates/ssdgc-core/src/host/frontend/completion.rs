//! Completion: a finished page transaction reaches its request; the request completes when its
//! last page on its last drive is done — its response time and breakdown recorded, its id freed
//! or (in the plain run) handed to the next request — and the next request is issued.

use super::*;

impl FrontEnd {
    /// Drive `d` finished page transaction `p`. (Inlined into the run loop: a host page goes
    /// straight to [`FrontEnd::page_done`].)
    #[inline(always)]
    pub(crate) fn page_finished(&mut self, io: &mut Io, d: usize, p: PageDone) {
        if p.tag == FLUSH {
            self.flush_done(io, d, p.lpn);
        } else if self.plain {
            self.page_done::<true>(io, p.tag, d, p.bd);
        } else {
            self.page_done::<false>(io, p.tag, d, p.bd);
        }
    }

    /// Drive `d` wrote buffered page `lpn` to flash.
    #[cold]
    #[inline(never)]
    fn flush_done(&mut self, io: &mut Io, d: usize, lpn: Lpn) {
        self.buffer.flushed(self.stripe.array_page(d, lpn));
        if self.drives > 1 {
            self.per_drive[d].pages_flushed += 1;
        }
        if self.in_device == 0 {
            // Pages written again while in flight.
            self.flush_buffer(io);
        }
    }

    /// Request `id` completed at `now` with response time `lat` spent as `bd`: the per-request log
    /// and the series, when any is kept ([`FrontEnd::extras`]).
    #[inline(never)]
    fn record_extras(&mut self, id: u32, now: SimTime, lat: SimTime, bd: &Breakdown) {
        let r = &self.reqs[id as usize];
        let (write, arrival, index) = (r.write, r.arrival, r.index);
        let ReqExtras {
            write_index,
            offset,
            bytes,
        } = self.req_extras[id as usize];
        if let Some(sink) = self.request_sink.as_mut() {
            sink.record(&RequestRecord {
                index,
                arrival,
                completion: now,
                op: if write { Op::Write } else { Op::Read },
                offset,
                bytes,
                breakdown: *bd,
            });
        }
        if let Some(s) = self.stats.by_write.as_mut().filter(|_| write) {
            s.add(write_index, lat);
        }
        if let Some(s) = self.stats.by_time.as_mut() {
            s.add(arrival, lat);
            s.add_bytes(now, write, bytes);
        }
        if let Some(s) = self.stats.by_request.as_mut() {
            s.add(index, lat);
            s.add_bytes(index, write, bytes);
        }
    }

    /// Request id `id` is free for a new request.
    #[inline(always)]
    fn free_id(&mut self, id: u32) {
        let top = std::mem::replace(&mut self.free_top, id);
        if top != NO_ID {
            self.free_reqs.push(top);
        }
    }

    /// One page of request `id` on drive `d` is done, its time spent as `bd`; completes the piece
    /// and the request when it was their last. (`PLAIN`: in the plain run, [`FrontEnd::plain`].)
    pub(super) fn page_done<const PLAIN: bool>(
        &mut self,
        io: &mut Io,
        id: u32,
        d: usize,
        mut bd: Breakdown,
    ) {
        let direct = PLAIN || self.direct;
        // (The plain run's one drive.)
        let d = if PLAIN { 0 } else { d };
        let r = &mut self.reqs[id as usize];
        r.pending -= 1;
        let piece_done = if direct {
            // The request is its one piece.
            r.pending == 0
        } else {
            let slot = id as usize * self.drives + d;
            self.pending[slot] -= 1;
            self.pending[slot] == 0
        };
        if piece_done {
            if !direct && self.drives > 1 {
                // The piece's parts: its last page's, plus the request's wait for a device-queue
                // slot.
                let mut pb = bd;
                pb.cngc += r.admitted - r.arrival;
                self.per_drive[d]
                    .pieces
                    .record(io.now - r.arrival, r.write, &pb);
            }
            io.drives[d].end_piece(id, io.now);
        }
        if r.pending > 0 {
            if piece_done && io.drives[d].is_idle() {
                io.drives[d].kick_all(io.events, io.now);
            }
            return;
        }
        let lat = io.now - r.arrival;
        // The request's parts: its last page's, plus its wait for a device-queue slot.
        bd.cngc += r.admitted - r.arrival;
        let write = r.write;
        self.stats.requests.record(lat, write, &bd);
        if !PLAIN && self.extras {
            self.record_extras(id, io.now, lat, &bd);
        }
        self.in_device -= 1;
        // The usual completion of the plain run: the next request is issued in its place.
        let reissued = PLAIN && self.waiting.is_empty();
        if reissued {
            if self.reissue_plain(io, id) {
                return;
            }
        } else {
            self.free_id(id);
            self.outstanding -= 1;
            if let Some(next) = self.waiting.pop_front() {
                self.admit::<PLAIN>(io, next);
            }
        }
        if !reissued && (PLAIN || matches!(self.workload.mode, ReplayMode::ClosedLoop(_))) {
            match self.issue_closed_loop::<PLAIN>(io) {
                Ok(true) => {}
                Ok(false) => {
                    if let Some((n, idle)) = self.burst.filter(|_| !PLAIN) {
                        // (Once: a completion answered at once may have ended the burst already.)
                        if self.in_burst == n
                            && self.outstanding == 0
                            && self.next_arrival.is_none()
                        {
                            if let Err(e) = self.end_burst(io, idle) {
                                self.error.keep(e);
                            }
                        }
                    }
                }
                Err(e) => {
                    self.error.keep(e);
                }
            }
        }
        if self.in_device == 0 {
            // The device queue emptied: the write buffer is flushed.
            self.flush_buffer(io);
        }
        // On the direct path the drive's pieces are the requests in the device queue.
        let idle = if direct {
            self.in_device == 0
        } else {
            io.drives[d].is_idle()
        };
        debug_assert_eq!(idle, io.drives[d].is_idle());
        if piece_done && idle {
            // The drive has no host work left: its free dies may start idle-time work.
            io.drives[d].kick_all(io.events, io.now);
        }
    }

    /// The plain run: request `id` completed and no request waits for a device-queue slot. The next
    /// request is issued as [`FrontEnd::submit`] would, into what the completed one leaves: its id
    /// (the one `submit` would take, freed last), its place among the outstanding requests, and
    /// its device-queue slot, where it is admitted at once. When there is none, the id is freed.
    /// (A record held in the read-ahead window, the usual case, is taken here, in registers; one
    /// read from the source, out of line.) True when the completion has nothing left to do: a
    /// write took the slot.
    #[inline(always)]
    fn reissue_plain(&mut self, io: &mut Io, id: u32) -> bool {
        // (Not after the end: the window is empty then.)
        let Some(rec) = self.workload.next_held() else {
            self.reissue_from_source(io, id);
            return false;
        };
        self.stats.requests_seen += 1;
        match self.new_req::<true>(io.now, &rec, None) {
            Ok(req) if req.write => {
                // A write is queued, never answered at once: the device queue holds as many
                // requests as before, and its admission is the completion's last call (a tail
                // call; the read-ahead, which changes nothing, asked before it).
                debug_assert!(self.in_device < self.queue_depth);
                self.stats.writes_seen += 1;
                self.reqs[id as usize] = req;
                self.prefetch_ahead::<true>(io);
                self.admit::<true>(io, id);
                true
            }
            next => {
                self.reissue_req(io, id, next.map(Some));
                false
            }
        }
    }

    /// [`FrontEnd::reissue_plain`] when the next record is read from the source.
    #[inline(never)]
    fn reissue_from_source(&mut self, io: &mut Io, id: u32) {
        let next = self.next_record().and_then(|r| {
            r.map(|rec| self.new_req::<true>(io.now, &rec, None))
                .transpose()
        });
        self.reissue_req(io, id, next);
    }

    /// [`FrontEnd::reissue_plain`] of `next`, the next request (`None`: there is none).
    #[inline(always)]
    fn reissue_req(&mut self, io: &mut Io, id: u32, next: Result<Option<Req>, SimError>) {
        match next {
            Ok(Some(req)) => {
                // (A slot is free: the completed request's.)
                debug_assert!(self.in_device < self.queue_depth);
                self.stats.writes_seen += u64::from(req.write);
                self.reqs[id as usize] = req;
                self.admit::<true>(io, id);
                self.prefetch_ahead::<true>(io);
            }
            Ok(None) => {
                self.free_id(id);
                self.outstanding -= 1;
            }
            Err(e) => {
                self.free_id(id);
                self.outstanding -= 1;
                self.error.keep(e);
            }
        }
    }
}
