//! Weights for other engines: one small exporter per format.
