//! Admission: how a request in the device queue reaches the drives — its pages queued as
//! transactions directly (one drive, no buffer), split into pieces over the array's drives, or
//! answered by the write buffer, whose dirty pages are flushed as page writes.

use super::*;

impl FrontEnd {
    /// Moves a request into the device queue: its pieces begin on their drives, and each page
    /// becomes a transaction queued at its drive (or is answered by the buffer or at once).
    /// (`PLAIN`: in the plain run, [`FrontEnd::plain`], where it is direct.)
    #[inline]
    pub(super) fn admit<const PLAIN: bool>(&mut self, io: &mut Io, id: u32) {
        if PLAIN || self.direct {
            self.admit_direct::<PLAIN>(io, id);
        } else {
            self.admit_pieces(io, id);
        }
    }

    /// [`FrontEnd::admit`] in general: several drives, the write buffer, per-disk traces.
    #[inline(never)]
    fn admit_pieces(&mut self, io: &mut Io, id: u32) {
        self.in_device += 1;
        self.reqs[id as usize].admitted = io.now;
        let Req {
            first,
            base: region,
            span,
            pending,
            write,
            ..
        } = self.reqs[id as usize];
        let n = self.drives;
        let base = id as usize * n;
        let pages = (0..pending as u64).map(|i| region + (first + i) % span);
        // The request's pieces: pages per drive, and each piece's first page.
        let mut mask = 0u64;
        if n == 1 {
            self.pending[base] = pending;
            self.piece_first[0] = (region + first % span) as Lpn;
            mask = 1;
        } else {
            self.pending[base..base + n].fill(0);
            for a in pages.clone() {
                let (d, lpn) = self.stripe.page(a);
                if self.pending[base + d] == 0 {
                    self.piece_first[d] = lpn;
                }
                self.pending[base + d] += 1;
                mask |= 1 << d;
            }
        }
        let r = &mut self.reqs[id as usize];
        r.drives = mask;
        let r = *r;
        for d in drives_of(mask) {
            let c = Command {
                write,
                first: self.piece_first[d],
                pages: self.pending[base + d],
                arrival: r.arrival,
                seq: r.index,
            };
            io.drives[d].begin_piece(id, c);
        }
        if write && self.buffer.enabled() {
            if self.buffer.try_insert(pages.clone()) {
                // Acknowledged by the buffer; its pages are flushed later.
                self.buffer.writes_absorbed += 1;
                for d in drives_of(mask).filter(|_| n > 1) {
                    self.per_drive[d].writes_absorbed += 1;
                }
                self.ack_from_buffer(io, id);
                return;
            }
            // It does not fit: it goes to flash as an ordinary write, behind a flush of everything
            // buffered (which frees the buffer for the writes after it). Its pages' buffered
            // copies are superseded.
            self.buffer.writes_bypassed += 1;
            for d in drives_of(mask).filter(|_| n > 1) {
                self.per_drive[d].writes_bypassed += 1;
            }
            for a in pages.clone() {
                self.buffer.supersede(a);
            }
            self.flush_buffer(io);
        }
        // Pages answered at once, per drive (in `self.at_once`, all 0 outside `admit`).
        let mut immediate = 0;
        let mut from_buffer = 0;
        for (i, a) in pages.enumerate() {
            let (d, lpn) = self.stripe.page(a);
            if !write && self.buffer.contains(a) {
                // Served from the write buffer.
                self.buffer.hits_read += 1;
                if n > 1 {
                    self.per_drive[d].hits_read += 1;
                }
                from_buffer += 1;
                self.at_once[d] += 1;
                continue;
            }
            if !write && !io.drives[d].is_mapped(lpn) {
                // Never written: the FTL answers without touching flash.
                self.stats.requests.unmapped_reads += 1;
                if n > 1 {
                    self.per_drive[d].pieces.unmapped_reads += 1;
                }
                immediate += 1;
                self.at_once[d] += 1;
                continue;
            }
            let partial =
                (i == 0 && r.head_partial) || (i + 1 == pending as usize && r.tail_partial);
            io.drives[d].queue(io.events, io.now, id, lpn, write, partial);
        }
        if self.batch {
            for d in drives_of(mask) {
                io.drives[d].end_batch(io.events, io.now);
            }
        }
        if from_buffer > 0 && immediate + from_buffer == pending {
            // Nothing to read from flash: the buffer answers.
            for d in drives_of(mask) {
                self.at_once[d] = 0;
            }
            self.ack_from_buffer(io, id);
            return;
        }
        if immediate + from_buffer == 0 {
            return;
        }
        // Pages served at once (unmapped, or from the buffer in far less than a flash read). Each
        // drive's count is taken before its pages complete: the last completion may admit the
        // next request, which finds the counts at 0.
        for d in drives_of(mask) {
            for _ in 0..std::mem::take(&mut self.at_once[d]) {
                self.page_done::<false>(io, id, d, Breakdown::default());
            }
        }
    }

    /// [`FrontEnd::admit`] for a single drive with no write buffer (the common case, kept short):
    /// the request is one piece, and each of its pages is a transaction at the drive or, for a read
    /// of a page never written, answered at once.
    #[inline]
    fn admit_direct<const PLAIN: bool>(&mut self, io: &mut Io, id: u32) {
        self.in_device += 1;
        let r = &mut self.reqs[id as usize];
        r.admitted = io.now;
        let r = *r;
        let (first, pending, write) = (r.first, r.pending, r.write);
        debug_assert!(pending > 0);
        let (head, tail) = (r.head_partial, r.tail_partial);
        let logical = self.logical;
        // (Folded only when beyond the space: no division for most requests.)
        let mut a = if first < logical {
            first
        } else {
            first % logical
        };
        let drive = &mut io.drives[0];
        drive.begin_piece(
            id,
            Command {
                write,
                first: a as Lpn,
                pages: pending,
                arrival: r.arrival,
                seq: r.index,
            },
        );
        let mut immediate = 0;
        if pending == 1 {
            // A request of one page (the usual case): no loop, nothing kept across the call.
            immediate =
                self.direct_page(drive, io.events, io.now, id, a as Lpn, write, head || tail);
        } else {
            let mut i = 0;
            loop {
                let partial = (head && i == 0) || (tail && i + 1 == pending);
                immediate +=
                    self.direct_page(drive, io.events, io.now, id, a as Lpn, write, partial);
                i += 1;
                if i == pending {
                    break;
                }
                // The next page (after the last one, none).
                a += 1;
                if a == logical {
                    a = 0;
                }
            }
        }
        if self.batch {
            drive.end_batch(io.events, io.now);
        }
        for _ in 0..immediate {
            self.page_done::<PLAIN>(io, id, 0, Breakdown::default());
        }
    }

    /// Page `lpn` of request `id` on the direct path: a transaction queued at the drive, or, for a
    /// read of a page never written, answered at once (returns 1 then, else 0).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn direct_page(
        &mut self,
        drive: &mut Drive,
        events: &mut EventQueue,
        now: SimTime,
        id: u32,
        lpn: Lpn,
        write: bool,
        partial: bool,
    ) -> u32 {
        if !write && !drive.is_mapped(lpn) {
            // Never written: the FTL answers without touching flash.
            self.stats.requests.unmapped_reads += 1;
            1
        } else {
            drive.queue(events, now, id, lpn, write, partial);
            0
        }
    }

    /// Request `id` is served by the write buffer: each of its pieces completes after
    /// `buffer.latency`.
    fn ack_from_buffer(&mut self, io: &mut Io, id: u32) {
        let r = &mut self.reqs[id as usize];
        r.pending = r.drives.count_ones();
        let base = id as usize * self.drives;
        for d in drives_of(r.drives) {
            self.pending[base + d] = 1;
        }
        io.events
            .schedule(io.now + self.buffer_latency, Event::BufferDone(id));
    }

    /// The write buffer acknowledges request `id`.
    pub(crate) fn on_buffer_done(&mut self, io: &mut Io, id: u32) {
        let bd = Breakdown {
            st: self.buffer_latency,
            ..Breakdown::default()
        };
        for d in drives_of(self.reqs[id as usize].drives) {
            self.page_done::<false>(io, id, d, bd);
        }
    }

    /// Queues every dirty buffered page as a page write to its drive.
    pub(super) fn flush_buffer(&mut self, io: &mut Io) {
        for a in self.buffer.take_dirty() {
            let (d, lpn) = self.stripe.page(a);
            io.drives[d].queue(io.events, io.now, FLUSH, lpn, true, false);
        }
        if self.batch {
            for d in io.drives.iter_mut() {
                d.end_batch(io.events, io.now);
            }
        }
    }
}
