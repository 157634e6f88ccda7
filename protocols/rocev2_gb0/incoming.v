// SPDX-License-Identifier: Apache-2.0
// tonic_proto_incoming (RoCEv2, DCQCN + go-back-0): the module of
// protocols/rocev2_dcqcn, unchanged. On a NACK it marks [wnd_start,
// next_new) as go-back-N does; restarting the message from its first
// segment is the host driver's part (README.md). Included by a path
// relative to the include dir protocols/rocev2_gb0.
`include "../rocev2_dcqcn/incoming.v"
