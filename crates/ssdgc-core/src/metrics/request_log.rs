//! The per-request log: every completed host request, handed to a sink the caller provides.
//!
//! Off unless a sink is set (the simulator's `set_request_sink`, which shows an example); when off
//! the run pays one test per completed request. The front end calls [`RequestSink::record`] once
//! per request, at its completion (so in completion order; [`RequestRecord::index`] gives the
//! arrival order), with its arrival and completion times, what it asked for and where its time
//! went (the same five-part [`Breakdown`] the report averages in `breakdown_us`). In an array the
//! record is the host's request, not its pieces on the drives.
//!
//! Sinks: any `FnMut(&RequestRecord) + Send` closure, a [`std::sync::mpsc::Sender`] (collect the
//! records from its receiver after the run), [`CsvLog`], which writes the CSV log of
//! `ssdgc run --latency-log FILE` to any writer, and [`SharedSink`], which lets the caller take
//! its sink back after the run.

use std::io::Write;

use super::breakdown::Breakdown;
use crate::units::SimTime;
pub use ssdgc_workload::Op;

/// One completed host request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestRecord {
    /// Position of the request in arrival order, from 0.
    pub index: u64,
    /// Arrival time, ns of simulated time (0 is the first arrival).
    pub arrival: SimTime,
    /// Completion time, ns.
    pub completion: SimTime,
    /// Read or write.
    pub op: Op,
    /// First byte, as the workload gave it (before folding onto the logical space).
    pub offset: u64,
    /// Length in bytes, as the workload gave it.
    pub bytes: u64,
    /// Where the response time went: service time, waiting on GC of the same plane, on GC of
    /// another plane of the die, late conflicts, other conflicts (including the wait for a
    /// device-queue slot). The parts sum to [`RequestRecord::response`].
    pub breakdown: Breakdown,
}

impl RequestRecord {
    /// Response time: completion − arrival, ns.
    #[inline]
    pub fn response(&self) -> SimTime {
        self.completion - self.arrival
    }
}

/// Receives every completed request of a run, in completion order.
pub trait RequestSink: Send {
    /// One request completed.
    fn record(&mut self, r: &RequestRecord);
}

impl<F: FnMut(&RequestRecord) + Send> RequestSink for F {
    fn record(&mut self, r: &RequestRecord) {
        self(r)
    }
}

impl RequestSink for std::sync::mpsc::Sender<RequestRecord> {
    /// Sends the record; a receiver that went away is not an error of the run (the record is
    /// dropped).
    fn record(&mut self, r: &RequestRecord) {
        let _ = self.send(*r);
    }
}

/// The columns of the CSV log, in order.
pub const CSV_HEADER: &str = "arrival_us,completion_us,op,offset,bytes,response_us,st_us,csgc_us,cogc_us,lc_us,cngc_us,index";

/// Nanoseconds as exact decimal microseconds (`1234567` → `1234.567`).
pub fn us_text(ns: SimTime) -> String {
    format!("{}.{:03}", ns / 1000, ns % 1000)
}

/// A sink writing the CSV log: the header ([`CSV_HEADER`]), then one line per request — times in
/// µs with three decimals (exact: the simulation counts ns), `op` as `read` or `write`, `offset`
/// and `bytes` as given by the workload, the breakdown in µs, and the request's index in arrival
/// order. The first write error is kept and returned by [`CsvLog::finish`]; nothing is written
/// after it.
pub struct CsvLog<W: Write + Send> {
    out: W,
    error: Option<std::io::Error>,
    lines: u64,
}

impl<W: Write + Send> CsvLog<W> {
    /// A log writing to `out` (buffer it: one small write per request); writes the header.
    pub fn new(mut out: W) -> CsvLog<W> {
        let error = writeln!(out, "{CSV_HEADER}").err();
        CsvLog {
            out,
            error,
            lines: 0,
        }
    }

    /// Requests written so far.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Flushes the writer and returns it, or the first write error.
    pub fn finish(mut self) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write + Send> RequestSink for CsvLog<W> {
    fn record(&mut self, r: &RequestRecord) {
        if self.error.is_some() {
            return;
        }
        let b = &r.breakdown;
        let op = match r.op {
            Op::Read => "read",
            Op::Write => "write",
        };
        let res = writeln!(
            self.out,
            "{},{},{op},{},{},{},{},{},{},{},{},{}",
            us_text(r.arrival),
            us_text(r.completion),
            r.offset,
            r.bytes,
            us_text(r.response()),
            us_text(b.st),
            us_text(b.csgc),
            us_text(b.cogc),
            us_text(b.lc),
            us_text(b.cngc),
            r.index
        );
        match res {
            Ok(()) => self.lines += 1,
            Err(e) => self.error = Some(e),
        }
    }
}

/// A sink behind an `Arc<Mutex<…>>`, so that the caller keeps a handle to it while the simulator
/// owns another: give `Box::new(shared.clone())` to the simulator and take the sink back with
/// [`SharedSink::into_inner`] once the run is over.
pub struct SharedSink<S: RequestSink>(std::sync::Arc<std::sync::Mutex<S>>);

impl<S: RequestSink> Clone for SharedSink<S> {
    fn clone(&self) -> Self {
        SharedSink(self.0.clone())
    }
}

impl<S: RequestSink> SharedSink<S> {
    /// Shares `sink`.
    pub fn new(sink: S) -> Self {
        SharedSink(std::sync::Arc::new(std::sync::Mutex::new(sink)))
    }

    /// The sink, when this is the last handle (the simulator holding the other one has been
    /// dropped, as it is when its run returns).
    pub fn into_inner(self) -> Option<S> {
        std::sync::Arc::try_unwrap(self.0)
            .ok()
            .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
    }
}

impl<S: RequestSink> RequestSink for SharedSink<S> {
    fn record(&mut self, r: &RequestRecord) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).record(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(index: u64, arrival: SimTime, completion: SimTime, op: Op) -> RequestRecord {
        let lat = completion - arrival;
        RequestRecord {
            index,
            arrival,
            completion,
            op,
            offset: 8192,
            bytes: 4096,
            breakdown: Breakdown {
                st: lat - 1,
                cngc: 1,
                ..Breakdown::default()
            },
        }
    }

    #[test]
    fn csv_lines_are_exact_microseconds() {
        let mut log = CsvLog::new(Vec::new());
        log.record(&rec(0, 0, 1_234_567, Op::Write));
        log.record(&rec(1, 5, 1_005, Op::Read));
        assert_eq!(log.lines(), 2);
        let text = String::from_utf8(log.finish().unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], CSV_HEADER);
        assert_eq!(
            lines[1],
            "0.000,1234.567,write,8192,4096,1234.567,1234.566,0.000,0.000,0.000,0.001,0"
        );
        assert_eq!(
            lines[2],
            "0.005,1.005,read,8192,4096,1.000,0.999,0.000,0.000,0.000,0.001,1"
        );
        assert_eq!(lines.len(), 3);
    }

    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_write_error_is_kept_and_returned() {
        let mut log = CsvLog::new(Full);
        log.record(&rec(0, 0, 10, Op::Read));
        assert_eq!(log.lines(), 0);
        let e = log.finish().err().expect("the error is returned");
        assert_eq!(e.to_string(), "disk full");
    }

    #[test]
    fn a_shared_sink_comes_back_after_the_other_handle_is_dropped() {
        let shared = SharedSink::new(CsvLog::new(Vec::new()));
        let mut other: Box<dyn RequestSink> = Box::new(shared.clone());
        other.record(&rec(0, 0, 10, Op::Read));
        drop(other);
        let log = shared.into_inner().expect("last handle");
        assert_eq!(log.lines(), 1);
    }
}
