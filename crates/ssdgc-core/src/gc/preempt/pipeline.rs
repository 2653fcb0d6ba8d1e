//! Pipelining (preemptible-GC paper, Lee et al., IEEE TCAD 32(2), 2013, §III-A, §III-C, Fig. 6):
//! an incoming host request is inserted into a GC job through the cache register when it is of the
//! same type as the GC command next to it — a host write at preemption point A sends its data while
//! the GC move programs, and a host read at preemption point B sends its data out while the next
//! GC move reads. There is no decision to take beyond the setting: a scheme with `gc.pipeline` on
//! reports [`crate::gc::scheme::GcScheme::pipelined`], and the drive's pipelining mechanism
//! (`drive/pipeline.rs`) applies the overlapped timing whenever such a pair occurs and counts
//! the host commands pipelined (`schemes.pipeline.host_reads`, `host_writes`; Table IX).
