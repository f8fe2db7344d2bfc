// Thermal bodies that find the system's ambient through inner/outer (the
// library's Ambient is declared inner here; each Body declares it outer, and
// an `inner parameter` start temperature is read by `outer parameter`s); an
// enclosure declares `inner outer` ambient: the body inside it sees the
// enclosure's own air, the enclosure itself the system's ambient. The
// ambient's equation appears once; the room is heated by an on/off controller.
// status: good
// library: ../../libraries/Drives
model RoomHeatingFromLibrary
  extends Drives.Examples.RoomHeating;
end RoomHeatingFromLibrary;
