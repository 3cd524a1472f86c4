// Test helpers shared by the delivery and CLI tests (a loopback HTTP receiver).
