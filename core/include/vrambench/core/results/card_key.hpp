// The card key: which devices, of any backend, are one physical card (docs/interop.md).
#pragma once

#include <vrambench/plugin.h>

#include <string>

namespace vrb {

// A device without an identity of its own: a CPU device, or one whose UUID is all
// zero. lavapipe's deviceUUID is one constant on every machine.
bool software_device(const vrb_device_info &info);

// pci:ADDRESS when the API tells it (drivers disagree on UUIDs across APIs), else
// uuid:HEX, else the id. A software device's UUID names no card, so its key is
// host:HOST/uuid:HEX: the same device through two APIs on one machine, one key, and
// the same driver on two machines, two keys.
std::string card_key(const vrb_device_info &info, const std::string &id, const std::string &host);

// This machine's name, as card_key wants it.
std::string this_host_name();

} // namespace vrb
