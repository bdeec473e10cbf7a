// CityPackCompiler module.
