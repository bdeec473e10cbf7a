// CityPackEmit module.
