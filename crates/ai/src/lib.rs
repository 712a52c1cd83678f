//! Bots for Carcassonne: random, greedy and Monte Carlo tree search, and an
//! arena that measures them fairly.
