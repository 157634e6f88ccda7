// SPDX-License-Identifier: Apache-2.0
// RoCEv2 with DCQCN and go-back-0 loss recovery: configuration and user
// state (protocols/rocev2_gb0/README.md).
//
// Go-back-0 differs from go-back-N (protocols/rocev2_dcqcn) only in what the
// host driver does after a NACK or timeout: it re-posts the message from
// its start. The engine's side, and so every constant, the user state and
// the DCQCN reaction point, is that of rocev2_dcqcn, included here
// unchanged. The path is relative to this folder's include dir
// (protocols/rocev2_gb0), so the one include dir of a protocol suffices.
`include "../rocev2_dcqcn/user_configs.vh"
