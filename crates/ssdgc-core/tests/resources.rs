//! The flash resource model: the legality of multi-plane commands, and what each operation
//! reserves and for how long.

mod multiplane {
    use ssdgc_core::flash::{check_multiplane, Geometry};
    use ssdgc_core::Config;

    #[test]
    fn legal_and_illegal_multiplane_commands() {
        let mut cfg = Config::default();
        cfg.geometry.planes_per_die = 4;
        let g = Geometry::new(&cfg);
        // Planes 0..4 form die 0; plane 4 is on die 1.
        let ok = [g.ppn(0, 3, 7), g.ppn(1, 9, 7), g.ppn(3, 0, 7)];
        assert!(check_multiplane(&g, &ok, true).is_ok());
        let offsets = [g.ppn(0, 3, 7), g.ppn(1, 9, 6)];
        assert!(check_multiplane(&g, &offsets, true)
            .unwrap_err()
            .contains("offsets differ"));
        assert!(check_multiplane(&g, &offsets, false).is_ok());
        let dies = [g.ppn(0, 3, 7), g.ppn(4, 3, 7)];
        assert!(check_multiplane(&g, &dies, true)
            .unwrap_err()
            .contains("die"));
        let twice = [g.ppn(1, 3, 7), g.ppn(1, 4, 7)];
        assert!(check_multiplane(&g, &twice, true)
            .unwrap_err()
            .contains("twice"));
        assert!(check_multiplane(&g, &[g.ppn(0, 0, 0)], true).is_err());
    }
}

mod reservations {
    use ssdgc_core::flash::{FlashOp, Geometry, Resources, Timing};
    use ssdgc_core::gc::GcOp;
    use ssdgc_core::Config;

    fn setup() -> (Geometry, Timing, Resources) {
        let mut cfg = Config::default();
        cfg.timing.command.0 = 1_000;
        let geo = Geometry::new(&cfg);
        let t = Timing::new(&cfg);
        let r = Resources::new(&geo, t.transfer);
        (geo, t, r)
    }

    #[test]
    fn host_operations_follow_the_model_formulas() {
        let (_, t, mut r) = setup();
        // A read: cmd + read on the die, then the page over the free channel.
        let a = r.reserve(0, 100, &FlashOp::host_read(&t, 1));
        assert_eq!(a.transfer_start, 100 + t.command + t.read);
        assert_eq!(a.end, a.transfer_start + t.transfer);
        assert_eq!(a.channel_wait(), 0);
        assert_eq!(r.die_until(0), a.end);
        // A write on die 1 (same channel: dies 0 and 1 share channel 0 in the default drive)
        // waits for the read's transfer, then programs.
        let b = r.reserve(1, 100, &FlashOp::host_write(&t, 1));
        assert_eq!(
            b.transfer_start, a.end,
            "one transfer at a time per channel"
        );
        assert_eq!(b.channel_wait(), a.end - (100 + t.command));
        assert_eq!(b.end, a.end + t.transfer + t.program);
        // Die 2 is on channel 1: no wait.
        let c = r.reserve(2, 100, &FlashOp::host_write(&t, 1));
        assert_eq!(c.channel_wait(), 0);
    }

    #[test]
    fn gc_operations_use_the_channel_only_without_copyback_or_for_the_buffer() {
        let (geo, t, mut r) = setup();
        let mv = GcOp::Move { src: 0, dst: 1 };
        let f = GcOp::flash_op(&mv, &t, true, 1);
        assert_eq!(
            (f.transfers, f.duration(t.transfer)),
            (0, 2 * t.command + t.read + t.program)
        );
        // A copyback move leaves the channel alone, even a busy one.
        r.reserve(1, 0, &FlashOp::host_write(&t, 1));
        let busy = r.reserve(0, 0, &f);
        assert_eq!(busy.end, f.duration(t.transfer));
        let f = GcOp::flash_op(&mv, &t, false, 1);
        assert_eq!(f.transfers, 2);
        let out = r.reserve(0, 0, &f);
        assert_eq!(
            out.end,
            out.transfer_start + 2 * t.transfer + t.command + t.program
        );
        let e = GcOp::flash_op(&GcOp::Erase { plane: 0, block: 0 }, &t, false, 1);
        assert_eq!((e.transfers, e.erase_blocks, e.registers), (0, 1, 0));
        assert_eq!(e.duration(t.transfer), t.command + t.erase);
        let commit = GcOp::Commit {
            n: 2,
            dst: [geo.ppn(0, 0, 0), geo.ppn(1, 0, 0), 0, 0, 0, 0, 0, 0],
        };
        let f = GcOp::flash_op(&commit, &t, true, 0b11);
        assert_eq!((f.before, f.transfers, f.after), (t.command, 2, t.program));
        let m = FlashOp::merged_read(&t, true, 1);
        assert_eq!(
            (m.before, m.transfers, m.after),
            (t.command + t.read, 1, t.command + t.program)
        );
        assert_eq!(FlashOp::merged_read(&t, false, 1).transfers, 2);
    }
}

mod registers_and_scope {
    use ssdgc_core::flash::{
        FlashOp, GcScope, Geometry, RegisterSharing, ResourceParams, Resources, Timing,
    };
    use ssdgc_core::Config;

    fn setup(scope: GcScope, registers: u8) -> (Timing, Resources) {
        let mut cfg = Config::default();
        cfg.timing.command.0 = 1_000;
        // Two dies per channel: dies 0 and 1 on channel 0, dies 2 and 3 on channel 1.
        cfg.geometry.chips_per_channel = 2;
        let geo = Geometry::new(&cfg);
        let t = Timing::new(&cfg);
        let r = Resources::new(&geo, t.transfer).with_params(ResourceParams {
            registers_per_plane: registers,
            sharing: RegisterSharing::None,
            scope,
        });
        (t, r)
    }

    #[test]
    fn one_register_changes_nothing() {
        let (t, mut r) = setup(GcScope::Die, 1);
        let op = FlashOp::host_write(&t, 1);
        assert_eq!(op.combined(RegisterSharing::Array), op);
        assert_eq!(r.reserve(0, 0, &op).end, t.command + t.transfer + t.program);
        assert_eq!(r.registers_per_plane(), 1);
    }

    #[test]
    #[should_panic(expected = "registers of a plane that has 2")]
    fn an_operation_holds_no_more_registers_than_the_plane_has() {
        let (t, mut r) = setup(GcScope::Die, 2);
        let page = FlashOp::new(t.read, 0, t.program, 1);
        r.reserve(0, 0, &FlashOp::in_flight(3, page, 0, 0));
    }

    #[test]
    fn channel_scope_holds_the_other_dies_of_the_channel() {
        let (_, mut r) = setup(GcScope::Channel, 1);
        r.hold_channel(1);
        assert!(r.blocked(0), "die 0 shares channel 0 with die 1");
        assert!(!r.blocked(1), "the holder itself is not blocked");
        assert!(!r.blocked(2) && !r.blocked(3), "channel 1 is free");
        assert_eq!(r.release_channel(0), 0..0, "die 0 holds nothing");
        assert_eq!(r.release_channel(1), 0..2);
        assert!(!r.blocked(0));
        // Die scope: GC holds no channel.
        let (_, mut r) = setup(GcScope::Die, 1);
        r.hold_channel(1);
        assert!(!r.blocked(0));
        assert_eq!(r.release_channel(1), 0..0);
    }
}
