/** One booking as GET /schedules/index.json, the webhooks and the `bookings` collection show it. */
export function presentBooking(r: {
  id: string;
  aircraft_id: string;
  pilot_id: string;
  instructor_id: string | null;
  flight_type_id: string;
  base_id: string | null;
  start_at: number;
  end_at: number;
  status: string;
  flight_id: string | null;
  remarks: string | null;
  user_id: string | null;
  departure_airport: string | null;
  landing_airport: string | null;
}) {
  return {
    id: r.id,
    aircraft_id: r.aircraft_id,
    pilot_id: r.pilot_id,
    instructor_id: r.instructor_id,
    flight_type_id: r.flight_type_id,
    base_id: r.base_id,
    start: Number(r.start_at),
    end: Number(r.end_at),
    status: r.status,
    flight_id: r.flight_id,
    remarks: r.remarks,
    user_id: r.user_id,
    departure_airport: r.departure_airport,
    landing_airport: r.landing_airport,
  };
}
