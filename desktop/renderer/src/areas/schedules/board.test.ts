import { describe, expect, it } from 'vitest';
import { DROP_SNAP_SECONDS, droppedStart, movedArgs } from './board.ts';

const H = 3600;

describe('drag to move', () => {
  it('the dropped start keeps the grab point and snaps to the grid', () => {
    // Lane 06:00-22:00 (16 h), dropped 11.5 h across, grabbed 30 min into the booking: 17:00.
    expect(droppedStart(6 * H, 22 * H, 11.5 / 16, 30 * 60)).toBe(17 * H);
    expect(droppedStart(6 * H, 22 * H, 11.5 / 16 + 0.001, 30 * 60) % DROP_SNAP_SECONDS).toBe(0);
    // Outside the lane: clamped to its ends.
    expect(droppedStart(6 * H, 22 * H, -1, 0)).toBe(6 * H);
    expect(droppedStart(6 * H, 22 * H, 2, 0)).toBe(22 * H);
  });
  it('a move is the same booking, same length, at the new place', () => {
    const b = {
      id: 'b1',
      aircraft_id: 'A',
      pilot_id: 'P',
      instructor_id: 'I',
      flight_type_id: 'T',
      start: 10 * H,
      end: 12 * H,
      remarks: 'r',
    };
    expect(movedArgs(b, 15 * H, { aircraft_id: 'B' })).toEqual({
      id: 'b1',
      aircraft_id: 'B',
      pilot_id: 'P',
      instructor_id: 'I',
      flight_type_id: 'T',
      start: 15 * H,
      end: 17 * H,
      remarks: 'r',
    });
    expect(movedArgs(b, 9 * H, { instructor_id: 'J' })).toMatchObject({
      aircraft_id: 'A',
      instructor_id: 'J',
      start: 9 * H,
      end: 11 * H,
    });
  });
});
