// SPDX-License-Identifier: Apache-2.0
// tonic_proto_transmit (RoCEv2, DCQCN + go-back-0): the module of
// protocols/rocev2_dcqcn, unchanged (the byte counter's input). Included by
// a path relative to the include dir protocols/rocev2_gb0.
`include "../rocev2_dcqcn/transmit.v"
