'use strict'
const helperJs = () => 1

function viaExports () {
  return helperJs()
}

module.exports = { helperJs, viaExports }
