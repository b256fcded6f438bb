// NetTransport: a reliable transport that runs the two network stages of one connection — its
// data direction and its acknowledgements (sim/stages.hpp NetworkStage): RC (sim/rc_connection)
// or packet-level TCP (sim/tcp_connection). The data stage hands it every packet entering the
// fabric and every packet the fabric delivers or drops; the transport decides what is sent,
// resent and delivered on the route.
#pragma once

namespace rdmasim {

struct Packet;

class NetTransport {
 public:
  // Sender.
  virtual void send(Packet& p) = 0;         // a data packet reached the sender's fabric entry
  virtual void ack_arrived(Packet& p) = 0;  // an acknowledgement (or control frame) reached the sender
  virtual void ack_dropped(Packet& p) = 0;  // the fabric dropped one of them
  // Receiver.
  virtual void data_arrived(Packet& p) = 0;
  virtual void data_dropped(Packet& p) = 0;
  virtual void send_ack(Packet& token) = 0;  // a message-level ACK token on the route (RC)

 protected:
  ~NetTransport() = default;
};

}  // namespace rdmasim
