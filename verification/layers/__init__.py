"""The hallucination-prevention layers: pure functions over frozen dataclasses, thresholds passed in.

The pipeline runs them in this order: relevance (L1) → refusal (L1b) → grounding prompt (L2) → generate →
citation cleanup (L6) → URL whitelist (L3) → citation verification (L4) → number/code verification (L5) →
confidence (L7). Cleanup runs first so that every later layer sees only well-formed, in-range ``[n]`` markers.
"""
