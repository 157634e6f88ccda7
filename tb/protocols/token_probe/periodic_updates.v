// SPDX-License-Identifier: Apache-2.0
// tonic_proto_periodic (token_probe, test only): the module of
// tb/protocols/rate_probe, unchanged (writes nothing; the token scheme's
// tokens come from the grant path, not from a timeout). Included by a path
// relative to the include dir tb/protocols/token_probe.
`include "../rate_probe/periodic_updates.v"
