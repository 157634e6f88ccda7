// SPDX-License-Identifier: Apache-2.0
// tonic_dd_assert.svh: simulation-only invariants of tonic_dd_engine
// (docs/soak.md). `include'd just before `endmodule` of tonic_dd_engine (the
// coordinator), so it sees the signals between the processors; a
// processor's internal values are read by hierarchical name (u_next_seg.n_ws).
// Everything is inside `ifdef
// TONIC_ASSERT`: only the assertion-enabled Verilator models (the
// small tonic_<protocol>_<size> builds, model_defines TONIC_ASSERT) compile it; lint,
// synthesis and the fast models see an empty file. Immediate assertions in
// clocked blocks (Verilator --assert), each message naming its invariant.
// A failure prints and counts as a Verilator error (the soak raises the
// error limit and reports the count as violations).
`ifdef TONIC_ASSERT
  if (1) begin : g_dd_assert
    // Every check is off in reset and during the init sweep (no flow is
    // present, LUTRAM words are not yet defined).
    logic a_on;
    assign a_on = !rst_i && !c_init;

    // Next-seg: the flow it looks at, present and past the sweep.
    logic a_ns;
    assign a_ns = a_on && u_next_seg.ns_pick && present_n;

    always_ff @(posedge clk_i) begin
      if (a_ns) begin
        // Window bounds: wnd_start <= next_new <= wnd_start + W (serial),
        // next_new <= posted, cwnd in [1, W].
        assert (seq_le(u_next_seg.n_ws, u_next_seg.n_nn) && (u_next_seg.n_nn - u_next_seg.n_ws) <= 32'(W))
          else $error("dd_assert: window bounds: flow %0d wnd_start %0d next_new %0d (W %0d)", nf, u_next_seg.n_ws, u_next_seg.n_nn, W);
        assert (seq_le(u_next_seg.n_nn, u_next_seg.n_posted))
          else $error("dd_assert: window bounds: flow %0d next_new %0d beyond posted %0d", nf, u_next_seg.n_nn, u_next_seg.n_posted);
        assert (u_next_seg.n_wnd >= cnt_t'(1) && u_next_seg.n_wnd <= cnt_t'(W))
          else $error("dd_assert: window bounds: flow %0d cwnd %0d outside [1, %0d]", nf, u_next_seg.n_wnd, W);
        // Outstanding <= N: generated minus transmitted (mod 2 RingN).
        assert (u_next_seg.n_out <= ptr_t'(RingN))
          else $error("dd_assert: outstanding <= N: flow %0d outstanding %0d > %0d", nf, u_next_seg.n_out, RingN);
      end
      if (a_on && ns_fire) begin
        assert (present_n && u_next_seg.n_out < ptr_t'(RingN))
          else $error("dd_assert: outstanding <= N: flow %0d generates with %0d outstanding", nf, u_next_seg.n_out);
        if (ns_rtx) begin
          // A retransmission lies in [wnd_start, next_new).
          assert (seq_le(u_next_seg.n_ws, u_next_seg.n_rtx_idx) && seq_lt(u_next_seg.n_rtx_idx, u_next_seg.n_nn))
            else $error("dd_assert: window bounds: flow %0d retransmits %0d outside [%0d, %0d)", nf, u_next_seg.n_rtx_idx,
                        u_next_seg.n_ws, u_next_seg.n_nn);
        end else begin
          // A new segment lies inside the window and below posted.
          assert (u_next_seg.n_flight < u_next_seg.n_wnd && seq_lt(u_next_seg.n_nn, u_next_seg.n_posted))
            else $error("dd_assert: window bounds: flow %0d new %0d flight %0d cwnd %0d posted %0d", nf, u_next_seg.n_nn,
                        u_next_seg.n_flight, u_next_seg.n_wnd, u_next_seg.n_posted);
        end
      end
      // Transmit notify only for a flow with an address outstanding (the
      // counters as they stand before this cycle's generate and notify).
      if (a_on && txn_valid_i) begin
        assert (ptr_t'(gen_t - tx_cnt_txn) != '0 && ptr_t'(gen_t - tx_cnt_txn) <= ptr_t'(RingN))
          else $error("dd_assert: outstanding <= N: notify of flow %0d with %0d outstanding", txn_flow_i,
                      ptr_t'(gen_t - tx_cnt_txn));
      end
      // Incoming stage 1: the window start only moves forward, up to next_new.
      if (a_on && u_incoming1.i1_ok) begin
        assert (seq_le(u_incoming1.i1_ws, u_incoming1.i1_new) && seq_le(u_incoming1.i1_new, u_incoming1.i1_nn))
          else $error("dd_assert: window bounds: flow %0d wnd_start %0d -> %0d (next_new %0d)", i1f, u_incoming1.i1_ws, u_incoming1.i1_new,
                      u_incoming1.i1_nn);
      end
      // cwnd writes stay in [1, W].
      if (a_on && i2_wnd_we) begin
        assert (i2_wnd_wd >= cnt_t'(1) && i2_wnd_wd <= cnt_t'(W))
          else $error("dd_assert: window bounds: stage 2 writes cwnd %0d for flow %0d", i2_wnd_wd, i2f);
      end
      if (a_on && p_wnd_we) begin
        assert (p_wnd_wd >= cnt_t'(1) && p_wnd_wd <= cnt_t'(W))
          else $error("dd_assert: window bounds: periodic writes cwnd %0d for flow %0d", p_wnd_wd, pf);
      end
      // Control: an ADD only of an absent flow with nothing outstanding.
      if (a_on && c_add) begin
        assert (gen_c == tx_c)
          else $error("dd_assert: outstanding <= N: ADD of flow %0d with %0d outstanding", cf, gen_c - tx_c);
      end
    end

    // Credit never negative (rate and token schemes): a shadow of every
    // flow's permits (granted - used) kept as a signed count from the
    // engine's events alone: + each grant as written, - each segment, =
    // TokensInit at ADD, - the permits the wire gate voided at a cut. A
    // segment needs a permit; the count stays in [0, 65535] (rate: a signed
    // count, a debt after a revocation) and equals the engine's own
    // granted - used.
    if (CreditOn) begin : g_credit_assert
      int sh_perm [FlowCount];
      logic [16:0] a_after;  // permits after this cycle's grant (17 bits: no wrap)
      // granted and used are counters mod 2^16 (either may wrap past the
      // other): the permits are their 16-bit difference, widened only then.
      assign a_after = 17'(16'(u_credit_gate.g_credit.granted_g - u_credit_gate.g_credit.used_g))
                     + 17'(u_credit_gate.g_credit.g_add);
      always_ff @(posedge clk_i) begin
        if (rst_i) begin
          for (int f = 0; f < FlowCount; f++) sh_perm[f] <= 0;
        end else if (!c_init) begin
          if (ns_fire) begin
            assert (sh_perm[nf] >= 1 && u_credit_gate.g_credit.n_perm != '0)
              else $error("dd_assert: credit never negative: flow %0d sends with %0d permits (engine %0d)", nf,
                          sh_perm[nf], u_credit_gate.g_credit.n_perm);
            assert ((RateOn ? int'(signed'(u_credit_gate.g_credit.n_perm)) : int'(u_credit_gate.g_credit.n_perm))
                    == sh_perm[nf])
              else $error("dd_assert: credit never negative: flow %0d permits %0d, shadow %0d", nf,
                          u_credit_gate.g_credit.n_perm, sh_perm[nf]);
          end
          if (g_ins && !RateOn) begin
            assert (a_after <= 17'hffff)
              else $error("dd_assert: credit never negative: flow %0d permits wrap (%0d)", g_flow, a_after);
          end
          for (int f = 0; f < FlowCount; f++) begin
            automatic int p = sh_perm[f];
            if (g_ins && g_flow == flow_t'(f)) p = p + int'(u_credit_gate.g_credit.g_add);
            // A cut: the wire permits the gate voided (a debt of the
            // addresses generated and not yet released).
            if (void_valid_i && void_flow_i == flow_t'(f)) p = p - int'(void_cnt_i);
            if (ns_fire && nf == flow_t'(f)) p = p - 1;
            if (c_add && cf == flow_t'(f)) p = int'(TokensInit);
            // Rate: a debt after a cut, at most the addresses generated and
            // not released (RingN).
            assert (RateOn ? (p >= -int'(RingN) && p <= 32767) : (p >= 0 && p <= 65535))
              else $error("dd_assert: credit never negative: flow %0d shadow permits %0d", f, p);
            sh_perm[f] <= p;
          end
        end
      end
    end
  end : g_dd_assert
`endif
