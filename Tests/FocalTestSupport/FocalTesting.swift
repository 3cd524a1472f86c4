// The test doubles a user's tests get too (the `FocalTesting` product: `ManualClock`, `EventRecorder`) come with the
// repository's own test support, so a test that imports FocalTestSupport has them as before.
@_exported import FocalTesting
